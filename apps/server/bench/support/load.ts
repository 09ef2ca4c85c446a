import autocannon from 'autocannon';

export type Scenario = { name: string; url: string; headers: Record<string, string> };
export type Run = { requestsPerSecond: number; p50Ms: number; p99Ms: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** One autocannon run; an error or an answer other than 2xx makes the whole bench fail rather than flatter it. */
const once = async (scenario: Scenario, connections: number, duration: number): Promise<Run> => {
  // The load generator runs in a worker thread, off this process's event loop (which serves the loopback target).
  const result = await autocannon({
    url: scenario.url,
    headers: scenario.headers,
    connections,
    duration,
    workers: 1,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${scenario.name}: ${result.errors} errors, ${result.non2xx} answers other than 2xx`);
  }
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
};

/**
 * Every scenario at `connections`, interleaved in `rounds` (A B C, A B C, ...) so that the shared machine's load
 * swings reach them all alike; the median of each figure over the rounds. A warm-up run (`warmUp` seconds, 1 by
 * default) precedes each scenario's first round (pools, caches, JIT).
 */
export const interleaved = async (
  scenarios: readonly Scenario[],
  connections: number,
  rounds: number,
  duration: number,
  warmUp = 1,
): Promise<Map<string, Run>> => {
  const runs = new Map<string, Run[]>(scenarios.map((s) => [s.name, []]));
  for (const scenario of scenarios) await once(scenario, connections, warmUp);
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios)
      runs.get(scenario.name)!.push(await once(scenario, connections, duration));
  }
  const medians = new Map<string, Run>();
  for (const [name, list] of runs) {
    const run = {
      requestsPerSecond: Math.round(median(list.map((r) => r.requestsPerSecond))),
      p50Ms: median(list.map((r) => r.p50Ms)),
      p99Ms: median(list.map((r) => r.p99Ms)),
    };
    medians.set(name, run);
    console.info(
      `  ${connections} conn  ${name.padEnd(34)} ${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms`,
    );
  }
  return medians;
};
