import { once as onceEvent } from 'node:events';
import { Worker } from 'node:worker_threads';

export type Scenario = { name: string; url: string; headers: Record<string, string> };
export type Run = { requestsPerSecond: number; p50Ms: number; p99Ms: number };
/** The medians over the rounds, and each round's req/s in round order (for ratios taken round by round). */
export type Runs = Run & { roundsPerSecond: number[] };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * One autocannon run in a worker thread (load-worker.mjs), off this process's event loop, which serves the loopback
 * target; latencies timed per answer to the microsecond. An error or an answer other than 2xx makes the whole bench
 * fail rather than flatter it.
 */
const once = async (scenario: Scenario, connections: number, duration: number): Promise<Run> => {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
    workerData: { url: scenario.url, headers: scenario.headers, connections, duration },
  });
  const [result] = (await onceEvent(worker, 'message')) as [Run & { failures: number }];
  await worker.terminate();
  if (result.failures > 0) {
    throw new Error(`${scenario.name}: ${result.failures} errors or answers other than 2xx`);
  }
  const { requestsPerSecond, p50Ms, p99Ms } = result;
  return { requestsPerSecond, p50Ms, p99Ms };
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
): Promise<Map<string, Runs>> => {
  const runs = new Map<string, Run[]>(scenarios.map((s) => [s.name, []]));
  for (const scenario of scenarios) await once(scenario, connections, warmUp);
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios)
      runs.get(scenario.name)!.push(await once(scenario, connections, duration));
  }
  const medians = new Map<string, Runs>();
  for (const [name, list] of runs) {
    const run = {
      roundsPerSecond: list.map((r) => r.requestsPerSecond),
      requestsPerSecond: Math.round(median(list.map((r) => r.requestsPerSecond))),
      p50Ms: median(list.map((r) => r.p50Ms)),
      p99Ms: median(list.map((r) => r.p99Ms)),
    };
    medians.set(name, run);
    console.info(
      `  ${connections} conn  ${name.padEnd(34)} ${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.p50Ms.toFixed(2)} ms  p99 ${run.p99Ms.toFixed(2)} ms`,
    );
  }
  return medians;
};

/**
 * `run`'s req/s over `anchor`'s, round by round, then the median of those ratios. A round's runs follow one another
 * within seconds, so each ratio compares two scenarios on the machine as it was then; a ratio of the two medians can
 * pair one scenario's quiet round with the other's loaded one (a shared machine's speed moves by a quarter within
 * minutes).
 */
export const pairedRatio = (run: Runs, anchor: Runs): number =>
  median(run.roundsPerSecond.map((value, round) => value / (anchor.roundsPerSecond[round] ?? Number.NaN)));
