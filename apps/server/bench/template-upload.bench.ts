/**
 * Part of `npm run bench -w @platform/server`: can 8 KB of gzip hold the server? On each backend (PGlite, and
 * PostgreSQL with TEST_DATABASE_URL) the real platform answers `GET /api/ping` to autocannon (in a worker thread)
 * at 10 connections, idle, then while 16 writers (each its own user, with a verified token, in a worker thread)
 * post again and again the 7.7 KB gzip of a template document of 655,000 `{"a":1}` objects (5 MiB decoded).
 * Target (issue "fail closed", point 2): ping p99 under the writers ≤ 3× idle. Writes
 * bench/results/template-upload.json. Options: --duration=SECONDS (5 per run).
 */
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { fixture, USERS } from '../test/support/fixture.ts';
import { type Figure, flag, pingFor, startBenchPlatform, writeResults } from './support.ts';

const duration = flag('duration') ?? 5;
const WRITERS = 16;
const CONNECTIONS = 10;
const body = gzipSync(`{"name":"many","content":[${Array(655_000).fill('{"a":1}').join(',')}]}`, {
  level: 9,
});

/** `WRITERS` loops posting `body` until told to stop; resolves with their answers' statuses. */
const writers = (url: string, tokens: string[]) => {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     let running = true;
     const statuses = {};
     parentPort.once('message', () => { running = false; });
     const loop = async (token) => {
       while (running) {
         const r = await fetch(workerData.url, { method: 'POST', body: workerData.body, headers: {
           authorization: 'Bearer ' + token, 'content-type': 'application/json', 'content-encoding': 'gzip' } })
           .catch(() => undefined);
         if (r) { await r.arrayBuffer().catch(() => undefined); statuses[r.status] = (statuses[r.status] ?? 0) + 1; }
       }
     };
     Promise.all(workerData.tokens.map(loop)).then(() => parentPort.postMessage(statuses));`,
    { eval: true, workerData: { url, body, tokens } },
  );
  const done = new Promise<Record<string, number>>((resolve, reject) => {
    worker.once('message', (m: Record<string, number>) => {
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
  return {
    stop: () => {
      worker.postMessage('stop');
      return done;
    },
  };
};

console.info(`template document: ${body.length} bytes of gzip`);
const figures: Figure[] = [];
for (const backend of await testBackends()) {
  const bench = await startBenchPlatform(backend);
  try {
    await importDataFile(bench.database, fixture(new Date()));
    const tokens = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        bench.token(i === 0 ? USERS.owner : `auth0|writer-${i}`, ['platform:read', 'platform:write']),
      ),
    );
    const ping = `${bench.url}/api/ping`;
    await pingFor(ping, 1, CONNECTIONS); // warm-up
    const idle = await pingFor(ping, duration, CONNECTIONS);
    const load = writers(`${bench.url}/grafx/api/v1/environment/acme-prod/templates`, tokens);
    const busy = await pingFor(ping, duration, CONNECTIONS);
    const statuses = await load.stop();
    const ratio = Math.round((busy.p99 / Math.max(idle.p99, 1)) * 100) / 100;
    console.info(
      `${backend.name}: ping p99 idle ${idle.p99} ms, under ${WRITERS} writers ${busy.p99} ms (${ratio}×); writers got ${JSON.stringify(statuses)}`,
    );
    figures.push({
      label: `GET /api/ping p99 while ${WRITERS} writers post a ${body.length}-byte gzip of 655,000 {"a":1} (${backend.name}, ${CONNECTIONS} connections)`,
      value: busy.p99,
      unit: 'ms',
      anchor: { label: 'idle p99, same run', value: idle.p99 },
      ratio,
      target: '≤ 3× idle',
      met: busy.p99 <= 3 * Math.max(idle.p99, 1),
    });
  } finally {
    await bench.close();
  }
}
await writeResults('template-upload', figures);
