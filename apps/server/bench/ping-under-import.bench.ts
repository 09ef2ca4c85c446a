/**
 * Part of `npm run bench -w @platform/server`: does a large import stall the server? On each backend (the embedded
 * PGlite, and PostgreSQL with TEST_DATABASE_URL) the real platform answers `GET /api/ping` to autocannon (in a
 * worker thread) at 10 connections, first with nothing else to do (the idle p99), then while a worker thread posts
 * a data file of 800,000 new render events (about 110 MB, like the file that once held the embedded server 28 s)
 * to `POST /api/v1/imports` with a verified operator token: the p99 from the first body byte to the import's
 * answer (receiving, parsing, validating and writing it) and the event loop's longest delay in that window.
 * Target (issue "fail closed", point 9): ping p99 during the import ≤ 5× idle and ≤ 100 ms, on both backends.
 * Writes bench/results/api-import.json. Options: --events=N (800000), --duration=SECONDS (5, the idle run).
 */
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { testBackends } from '@platform/store/testing';
import { type Figure, flag, pingFor, pingLoad, startBenchPlatform, writeResults } from './support.ts';

const EVENTS = flag('events') ?? 800_000;
const duration = flag('duration') ?? 5;
const CONNECTIONS = 10;
const ENVIRONMENTS = 50;

/** A data file of one subscription with 50 environments and `EVENTS` render events, each a new identity. */
const dataFile = (): Buffer => {
  const environments = Array.from({ length: ENVIRONMENTS }, (_, i) => ({
    id: i + 1,
    guid: randomUUID(),
    name: `Environment ${i + 1}`,
    type: (['Production', 'Sandbox', 'Development'] as const)[i % 3],
  }));
  const start = Date.UTC(2026, 0, 1);
  const renderEvents = Array.from({ length: EVENTS }, (_, i) => ({
    environmentGuid: environments[i % ENVIRONMENTS]!.guid,
    kind: ['Pdf', 'Image', 'Mp4'][i % 3],
    watermarked: i % 10 === 0,
    // One second apart: every event is an identity of its own, as in a file of new history.
    at: new Date(start + i * 1000).toISOString(),
    count: 1 + (i % 5),
  }));
  return Buffer.from(
    JSON.stringify({
      users: [{ id: 'bench|owner', email: 'owner@bench.example', firstName: 'Bench', lastName: 'Owner' }],
      subscriptions: [
        {
          id: 1,
          guid: randomUUID(),
          name: 'bench',
          clientId: randomUUID(),
          subscriptionType: 'Saas',
          pricebookVersion: '2025.1',
          subscriptionTier: 'Enterprise',
          environments,
          members: [
            { userId: 'bench|owner', subscriptionRoles: ['SubscriptionOwner'], environmentRoles: {} },
          ],
        },
      ],
      renderEvents,
    }),
  );
};

/**
 * Posts the body from a worker thread, so that the client's own work never runs on the server's event loop. The
 * worker is started (and handed its copy of the body) before the measured window, and posts on `post()`: starting
 * a worker holds the starting thread for hundreds of milliseconds, which the window would count as the server's.
 */
const workerPoster = async (url: string, token: string, body: Buffer) => {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     parentPort.once('message', () => {
       const started = performance.now();
       fetch(workerData.url, { method: 'POST', body: workerData.body,
         headers: { authorization: 'Bearer ' + workerData.token, 'content-type': 'application/json' } })
         .then(async (r) => { await r.arrayBuffer(); parentPort.postMessage({ status: r.status, ms: performance.now() - started }); })
         .catch((e) => parentPort.postMessage({ error: String(e) }));
     });
     parentPort.postMessage({ ready: true });`,
    { eval: true, workerData: { url, token, body } },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    post: () =>
      new Promise<{ status: number; ms: number }>((resolve, reject) => {
        worker.once('message', (m: { status: number; ms: number; error?: string }) => {
          void worker.terminate();
          if (m.error) reject(new Error(m.error));
          else resolve(m);
        });
        worker.once('error', reject);
        worker.postMessage('post');
      }),
  };
};

const body = dataFile();
const megabytes = Math.round(body.length / 1e6);
console.info(`data file: ${megabytes} MB, ${EVENTS.toLocaleString('en')} render events`);
const figures: Figure[] = [];
for (const backend of await testBackends()) {
  const bench = await startBenchPlatform(backend);
  try {
    const token = await bench.token('bench|operator', ['platform:read', 'platform:write', 'platform:admin']);
    const url = `${bench.url}/api/ping`;
    await pingFor(url, 1, CONNECTIONS); // warm-up
    const idle = await pingFor(url, duration, CONNECTIONS);

    const poster = await workerPoster(`${bench.url}/api/v1/imports`, token, body);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const underLoad = pingLoad(url, CONNECTIONS);
    await new Promise((r) => setTimeout(r, 500));
    loop.enable();
    const imported = await poster.post();
    loop.disable();
    const busy = await underLoad.stop();
    if (imported.status !== 200) throw new Error(`the import answered ${imported.status}`);
    for (const [label, run] of [
      ['idle', idle],
      ['import', busy],
    ] as const) {
      if (run.errors > 0 || run.non2xx > 0)
        console.warn(`${label}: ${run.errors} errors, ${run.non2xx} not 2xx`);
    }
    const maxDelayMs = Math.round(loop.max / 1e6);
    const on = `(${backend.name}, ${CONNECTIONS} connections)`;
    const ratio = Math.round((busy.p99 / Math.max(idle.p99, 1)) * 100) / 100;
    console.info(
      `${backend.name}: ${megabytes} MB import in ${Math.round(imported.ms)} ms; ping p99 idle ${idle.p99} ms, ` +
        `during the import ${busy.p99} ms (${ratio}×); longest event-loop delay ${maxDelayMs} ms`,
    );
    figures.push(
      {
        label: `GET /api/ping p99 while a ${megabytes} MB import of ${EVENTS.toLocaleString('en')} new render events is received, parsed and written ${on}`,
        value: busy.p99,
        unit: 'ms',
        anchor: { label: 'idle p99, same run', value: idle.p99 },
        ratio,
        target: '≤ 5× idle and ≤ 100 ms',
        met: busy.p99 <= 5 * Math.max(idle.p99, 1) && busy.p99 <= 100,
      },
      { label: `longest event-loop delay during that import ${on}`, value: maxDelayMs, unit: 'ms' },
      {
        label: `${megabytes} MB import, first byte to answer ${on}`,
        value: Math.round(imported.ms),
        unit: 'ms',
      },
    );
  } finally {
    await bench.close();
  }
}
await writeResults('api-import', figures);
