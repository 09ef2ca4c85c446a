/**
 * `npm run bench -w @platform/proxy`: one loopback target called directly, through this proxy with a static
 * key, through this proxy with a cached OAuth token, and through @fastify/http-proxy. Prints requests/s and
 * p50/p99 latency added over the direct call, and writes bench/results/proxy.json at the repository root.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyHttpProxy from '@fastify/http-proxy';
import { migrate, openDatabase } from '@platform/store';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createProxy } from '../src/index.ts';
import {
  environmentId,
  insertConnector,
  newSecrets,
  seedEnvironment,
  setAuth,
} from '../test/support/database.ts';
import { listen } from '../test/support/servers.ts';
import { startTokenServer } from '../test/support/token-server.ts';

const durationSeconds = Number(process.env.BENCH_DURATION ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const payload = JSON.stringify({
  data: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })),
});

type Run = {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
};

const run = async (name: string, url: string, headers: Record<string, string> = {}): Promise<Run> => {
  // Warm-up: fills pools and caches so the measurement is the steady state.
  // The load generator runs in a worker thread, off the proxy's event loop.
  await autocannon({ url, connections, duration: 1, headers, workers: 1 });
  const result = await autocannon({ url, connections, duration: durationSeconds, headers, workers: 1 });
  const r: Run = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
  console.info(
    `${name.padEnd(32)} ${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms`,
  );
  return r;
};

const dataDir = await mkdtemp(join(tmpdir(), 'proxy-bench-'));
const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir });
await migrate(database);
const secrets = newSecrets();
await seedEnvironment(database);

// The target runs in a process of its own, so it does not share the event loop with the proxy under test.
const targetProcess = spawn(
  process.execPath,
  [
    '-e',
    `const body = ${JSON.stringify(payload)};
     const s = require('node:http').createServer((q, r) => {
       r.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
       r.end(body);
     });
     s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const [portLine] = (await once(targetProcess.stdout!, 'data')) as [Buffer];
const target = { url: `http://127.0.0.1:${portLine.toString().trim()}` };
const tokens = await startTokenServer();

const staticId = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
await setAuth(database, secrets, staticId, 'browser', 'staticKey', { key: 'X-Api-Key', value: 'bench-key' });
const oauthId = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
await setAuth(database, secrets, oauthId, 'browser', 'oAuth2ClientCredentials', {
  clientId: 'bench',
  clientSecret: 'bench-secret',
  tokenEndpoint: `${tokens.url}/token`,
});

const proxy = createProxy({
  database,
  secrets,
  log: pino({ level: 'warn' }),
  metricsRegistry: new Registry(),
  allowPrivateNetworks: true,
  publicUrl: 'http://127.0.0.1',
});
const caller = { userId: 'bench', roles: new Set(['platform:read']) };
const proxyServer = await listen((req, res) => {
  const connectorId = (req.url ?? '').split('/')[2] ?? '';
  void proxy.handle(req, res, {
    environmentId,
    connectorId,
    caller,
    traceId: randomBytes(16).toString('hex'),
  });
});

const fastify = Fastify({ logger: false });
await fastify.register(fastifyHttpProxy, { upstream: target.url });
await fastify.listen({ port: 0, host: '127.0.0.1' });
const fastifyAddress = fastify.server.address();
const fastifyPort = typeof fastifyAddress === 'object' && fastifyAddress ? fastifyAddress.port : 0;

const targetHeaders = { 'x-grafx-proxy-external-url': `${target.url}/items` };
const direct = await run('direct', `${target.url}/items`);
const staticKey = await run(
  'proxy, static key',
  `${proxyServer.url}/connectors/${staticId}/proxy`,
  targetHeaders,
);
const oauth = await run(
  'proxy, cached OAuth token',
  `${proxyServer.url}/connectors/${oauthId}/proxy`,
  targetHeaders,
);
const fastifyRun = await run('@fastify/http-proxy', `http://127.0.0.1:${fastifyPort}/items`);

const added = (r: Run) => ({
  ...r,
  addedP50Ms: Math.round((r.p50Ms - direct.p50Ms) * 100) / 100,
  addedP99Ms: Math.round((r.p99Ms - direct.p99Ms) * 100) / 100,
});
const report = {
  at: new Date().toISOString(),
  node: process.version,
  database: database.kind,
  durationSeconds,
  connections,
  tokenRequests: tokens.requests.length,
  runs: [direct, added(staticKey), added(oauth), added(fastifyRun)],
  targets: {
    addedP50AtMost1Ms: added(staticKey).addedP50Ms <= 1 && added(oauth).addedP50Ms <= 1,
    throughputAtLeastFastify:
      staticKey.requestsPerSecond >= fastifyRun.requestsPerSecond &&
      oauth.requestsPerSecond >= fastifyRun.requestsPerSecond,
  },
};
const out = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/results/proxy.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
console.info(`token requests: ${tokens.requests.length}; written ${out}`);

await fastify.close();
await proxyServer.close();
await proxy.close();
targetProcess.kill();
await tokens.close();
await database.close();
await rm(dataDir, { recursive: true, force: true });
