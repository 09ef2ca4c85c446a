// autocannon ships no types: the part the api and proxy benches use.
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    workers?: number;
  };
  type Result = {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  const autocannon: (options: Options) => Promise<Result>;
  export default autocannon;
}
