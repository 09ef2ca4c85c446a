/**
 * `npm run bench:rotation -w @platform/server`: does rotating SECRETS_KEY disturb the proxy? On each backend (the
 * embedded PGlite, and PostgreSQL with TEST_DATABASE_URL) the real bin serves with `new:…,old:…` while 10,000 stored
 * values (cached OAuth tokens beside a static-key connector) are sealed under `old`. autocannon (in a worker thread)
 * sends proxied requests through the static-key connector to a loopback target that answers 200 only when the key
 * arrives: first with nothing else to do (the p99 without rotation), then while `platform-server rotate-secrets`
 * re-seals every value under `new` (on the embedded database the running server does it for the command), at its
 * default pace (it rests twice as long as each batch took; four times on the embedded database). Both windows time
 * every answer in the same run; the rotation's opens at the command's first progress line (the keys checked, the
 * first batch next) and closes at its exit. A request lost counts in either window, the command's start included.
 * Target (issue 39): no request lost (every answer 2xx, no error) and the proxy's p99 during the rotation ≤ 2× the
 * p99 without it. Writes bench/results/rotation.json. Options: --values=N (10000), --duration=SECONDS (10, the window
 * without rotation), --connections=N (8).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DEMO_OWNER_ID } from '@platform/store';
import { type TestBackend, testBackends } from '@platform/store/testing';
import { startTestIssuer } from '../test/support/issuer.ts';
import {
  BOTH_KEYS,
  OLD_KEY,
  SECRET_VALUE,
  startKeyedTarget,
  writeSealedTokens,
} from '../test/support/rotation-world.ts';
import { publishStaticKeyConnector } from '../test/support/static-connector.ts';
import { startBenchServer } from './support/server.ts';
import { type Figure, flag, writeResults } from './support.ts';

const VALUES = flag('values') ?? 10_000;
const DURATION = flag('duration') ?? 10;
const CONNECTIONS = flag('connections') ?? 8;
const BIN = fileURLToPath(new URL('../bin/platform-server.js', import.meta.url));

type Window = { p99Ms: number; p50Ms: number; answered: number; failures: number; seconds: number };

/**
 * autocannon in a worker thread until `stop()`, timing every 2xx answer itself (autocannon's histogram keeps whole
 * milliseconds); anything else (an error, a status other than 2xx) counts as a failure, a lost request.
 */
const proxyLoad = (url: string, headers: Record<string, string>) => {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const autocannon = require(workerData.autocannon);
     const now = () => performance.timeOrigin + performance.now();
     // When each 2xx answer arrived, and how long it took; what else arrived (errors, other statuses), when.
     const answers = [];
     const failedAt = [];
     const instance = autocannon({ url: workerData.url, headers: workerData.headers,
       connections: workerData.connections, duration: 3600 }, (error) => {
       if (error) return parentPort.postMessage({ error: String(error) });
     });
     instance.on('response', (_client, status, _bytes, ms) => {
       if (status >= 200 && status < 300) answers.push([now(), ms]); else failedAt.push(now());
     });
     instance.on('reqError', () => failedAt.push(now()));
     parentPort.once('message', ({ from, to }) => {
       instance.stop();
       const inside = answers.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms);
       const sorted = Float64Array.from(inside).sort();
       const at = (share) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0;
       parentPort.postMessage({ p50Ms: at(0.5), p99Ms: at(0.99), answered: sorted.length,
         failures: failedAt.length, seconds: (to - from) / 1000 });
     });`,
    {
      eval: true,
      workerData: {
        url,
        headers,
        connections: CONNECTIONS,
        autocannon: createRequire(import.meta.url).resolve('autocannon'),
      },
    },
  );
  const result = new Promise<Window>((resolve, reject) => {
    worker.once('message', (message: Window & { error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
  return {
    /** Stops the load; the figures of the answers that arrived between `from` and `to` (epoch ms), failures of all. */
    stop: (from: number, to = wallClock()) => {
      worker.postMessage({ from, to });
      return result;
    },
  };
};

const wallClock = () => performance.timeOrigin + performance.now();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const issuer = await startTestIssuer();
const target = await startKeyedTarget();
const authorization = `Bearer ${await issuer.sign({ sub: DEMO_OWNER_ID, roles: ['platform:read', 'platform:write'], expiresIn: 3600 })}`;
const figures: Figure[] = [];

const benchBackend = async (backend: TestBackend) => {
  const database = await backend.fresh();
  await database.detach();
  const env = (secretsKey: string) => ({
    DATA_DIR: database.dataDir,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    AUTH_ISSUER: issuer.url,
    DEMO_DATA: 'true',
    RATE_LIMIT_PER_SECOND: '1000000000',
    PROXY_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    SECRETS_KEY: secretsKey,
  });
  try {
    // The values under the old key: the connector published through the API, the tokens written beside it.
    const first = await startBenchServer(env(`old:${OLD_KEY}`));
    let connectorId: string;
    try {
      connectorId = await publishStaticKeyConnector(
        `${first.url}/grafx/api/v1/environment/acme-prod`,
        authorization,
        { name: 'rotated', key: 'X-Api-Key', value: SECRET_VALUE },
      );
    } finally {
      await first.stop();
    }
    await writeSealedTokens(database, connectorId, Math.ceil((VALUES - 1) / 2), `old:${OLD_KEY}`);

    const server = await startBenchServer(env(BOTH_KEYS));
    try {
      const url = `${server.url}/grafx/api/v1/environment/acme-prod/connectors/${connectorId}/proxy`;
      const headers = { authorization, 'x-grafx-proxy-external-url': `${target.url}/items` };
      // Warm-up: connections, caches, JIT.
      await sleep(100);
      const warm = proxyLoad(url, headers);
      await sleep(2000);
      await warm.stop(wallClock());

      const quiet = proxyLoad(url, headers);
      await sleep(500);
      const quietFrom = wallClock();
      await sleep(DURATION * 1000);
      const without = await quiet.stop(quietFrom);

      const busy = proxyLoad(url, headers);
      await sleep(500);
      const started = performance.now();
      // The window opens at the command's first progress line, once it has started and checked the keys: the
      // rotation proper (Node starting the command is not the rotation's doing).
      let rotationFrom: number | undefined;
      const command = spawn(process.execPath, [BIN, 'rotate-secrets'], {
        env: { PATH: process.env.PATH ?? '', ...env(BOTH_KEYS) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      command.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      command.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (rotationFrom === undefined && output.includes('Re-sealed 0/')) rotationFrom = wallClock();
      });
      const [code] = (await once(command, 'exit')) as [number | null];
      const rotationMs = Math.round(performance.now() - started);
      const during = await busy.stop(rotationFrom ?? wallClock());
      if (code !== 0) throw new Error(`rotate-secrets exited ${code}: ${output}`);
      const resealed = Number(/Re-sealed (\d+) values/.exec(output)?.[1] ?? Number.NaN);

      const on = `(${backend.name}, ${CONNECTIONS} connections)`;
      const ratio = Math.round((during.p99Ms / Math.max(without.p99Ms, 0.001)) * 100) / 100;
      const lost = without.failures + during.failures;
      console.info(
        `${backend.name}: ${resealed} values re-sealed in ${rotationMs} ms; proxy p99 without rotation ` +
          `${without.p99Ms.toFixed(2)} ms (${without.answered} answers), during it ${during.p99Ms.toFixed(2)} ms ` +
          `(${during.answered} answers, ${ratio}×); ${lost} lost`,
      );
      figures.push(
        {
          label: `proxy p99 (static key, loopback target) while rotate-secrets re-seals ${resealed.toLocaleString('en')} values ${on}`,
          value: Math.round(during.p99Ms * 100) / 100,
          unit: 'ms',
          anchor: { label: 'p99 without rotation, same run', value: Math.round(without.p99Ms * 100) / 100 },
          target: '≤ 2× without rotation',
          met: during.p99Ms <= 2 * without.p99Ms,
        },
        {
          label: `proxied requests lost (errors and answers other than 2xx) in both windows ${on}`,
          value: lost,
          unit: 'requests',
          target: '0',
          met: lost === 0,
        },
        {
          label: `rotate-secrets, process start to exit, ${resealed.toLocaleString('en')} values ${on}`,
          value: rotationMs,
          unit: 'ms',
        },
        { label: `proxied answers timed during the rotation ${on}`, value: during.answered, unit: 'answers' },
        {
          label: `proxy p50 during the rotation ${on}`,
          value: Math.round(during.p50Ms * 100) / 100,
          unit: 'ms',
        },
      );
    } finally {
      await server.stop();
    }
  } finally {
    await database.close();
  }
};

try {
  for (const backend of await testBackends()) await benchBackend(backend);
} finally {
  await target.close();
  await issuer.close();
}
await writeResults('rotation', figures);
