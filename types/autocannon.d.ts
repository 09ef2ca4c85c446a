// autocannon ships no types: the part the benches use.
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
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
