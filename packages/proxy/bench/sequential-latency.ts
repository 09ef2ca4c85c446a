import { Worker } from 'node:worker_threads';

/**
 * Added latency in microseconds rather than autocannon's whole milliseconds: each scenario is called N times,
 * one request at a time on one keep-alive connection, timed with process.hrtime. The client runs in a
 * worker thread (off the proxy's event loop), and the scenarios are interleaved in rounds so that the
 * shared machine's load swings hit them all alike.
 */
export type Scenario = { name: string; url: string; headers: Record<string, string> };
export type LatencySummary = { name: string; p50Us: number; p90Us: number; p99Us: number; samples: number };

const workerSource = `
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
const { scenarios, rounds, perRound } = workerData;
const agents = scenarios.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
const once = (s, agent) => new Promise((resolve, reject) => {
  const started = process.hrtime.bigint();
  const req = http.get(s.url, { agent, headers: s.headers }, (res) => {
    res.on('data', () => {});
    res.on('end', () => res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e3)
      : reject(new Error(s.name + ': status ' + res.statusCode)));
  });
  req.on('error', reject);
});
(async () => {
  const samples = scenarios.map(() => []);
  for (let i = 0; i < scenarios.length; i++) for (let w = 0; w < 200; w++) await once(scenarios[i], agents[i]);
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < scenarios.length; i++)
      for (let n = 0; n < perRound; n++) samples[i].push(await once(scenarios[i], agents[i]));
  parentPort.postMessage(samples);
  for (const a of agents) a.destroy();
})().catch((error) => { parentPort.postMessage({ error: String(error) }); });
`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

export const measureSequential = async (
  scenarios: Scenario[],
  rounds = 10,
  perRound = 200,
): Promise<LatencySummary[]> => {
  const worker = new Worker(workerSource, { eval: true, workerData: { scenarios, rounds, perRound } });
  const [result] = (await Promise.race([
    new Promise((resolve) => worker.once('message', (m) => resolve([m]))),
    new Promise((_, reject) => worker.once('error', reject)),
  ])) as [number[][] | { error: string }];
  await worker.terminate();
  if (!Array.isArray(result)) throw new Error(result.error);
  return scenarios.map((s, i) => {
    const sorted = [...(result[i] ?? [])].sort((a, b) => a - b);
    return {
      name: s.name,
      p50Us: Math.round(percentile(sorted, 50)),
      p90Us: Math.round(percentile(sorted, 90)),
      p99Us: Math.round(percentile(sorted, 99)),
      samples: sorted.length,
    };
  });
};
