/**
 * `npm run bench -w @platform/proxy`: one loopback target called directly, through this proxy with a static
 * key, through this proxy with a cached OAuth token, and through @fastify/http-proxy, in one run. Throughput
 * with autocannon at 32 connections (and 1 and 8); added latency timed per request with process.hrtime over
 * sequential calls (autocannon's whole milliseconds are too coarse for a 1 ms target). Writes
 * bench/results/proxy.json at the repository root in the shared {name, figures} shape.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
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
import { type ConnectorProxy, createProxy } from '../src/index.ts';
import {
  environmentId,
  insertConnector,
  newSecrets,
  seedEnvironment,
  setAuth,
} from '../test/support/database.ts';
import { listen } from '../test/support/servers.ts';
import { startTokenServer } from '../test/support/token-server.ts';
import { type BenchResult, compared, type Figure, plain } from './figures.ts';
import { measureSequential, type Scenario } from './sequential-latency.ts';

const durationSeconds = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const lowConnections = [1, 8];
const lowDurationSeconds = Number(process.env.BENCH_LOW_DURATION ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const payload = JSON.stringify({
  data: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })),
});

type Run = { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number; non2xx: number };

const run = async (scenario: Scenario, conns: number, duration: number): Promise<Run> => {
  const options = { url: scenario.url, headers: scenario.headers, connections: conns, workers: 1 };
  // Warm-up: fills pools and caches so the measurement is the steady state.
  // The load generator runs in a worker thread, off the proxy's event loop.
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration });
  const r: Run = {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
  if (r.errors > 0 || r.non2xx > 0)
    throw new Error(`${scenario.name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  console.info(
    `${scenario.name.padEnd(44)} c=${String(conns).padEnd(3)} ${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms`,
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

const proxyOptions = {
  database,
  secrets,
  log: pino({ level: 'warn' }),
  metricsRegistry: new Registry(),
  allowPrivateNetworks: true,
  publicUrl: 'http://127.0.0.1',
};
const caller = { userId: 'bench', roles: new Set(['platform:read']) };
// Stands in for apps/server: the route gives the connector id; a trace id per request.
const serve = async (proxy: ConnectorProxy) => {
  const listening = await listen((req, res) => {
    const connectorId = (req.url ?? '').split('/')[2] ?? '';
    void proxy.handle(req, res, { environmentId, connectorId, caller, traceId: randomUUID() });
  });
  // apps/server's keep-alive (platform.ts). The tests' 1 s answers `Keep-Alive: timeout=1`, on which node's
  // http.Agent will not reuse a socket: the sequential client then paid a new connection per proxied call.
  listening.server.keepAliveTimeout = 65_000;
  return listening;
};
const proxy = createProxy(proxyOptions);
const proxyServer = await serve(proxy);
// The composed server's setting today (configCacheMs 0: one configuration query per request).
const uncachedProxy = createProxy({ ...proxyOptions, configCacheMs: 0 });
const uncachedServer = await serve(uncachedProxy);

const fastify = Fastify({ logger: false });
await fastify.register(fastifyHttpProxy, { upstream: target.url });
await fastify.listen({ port: 0, host: '127.0.0.1' });
const fastifyAddress = fastify.server.address();
const fastifyPort = typeof fastifyAddress === 'object' && fastifyAddress ? fastifyAddress.port : 0;

const targetHeaders = { 'x-grafx-proxy-external-url': `${target.url}/items` };
const direct: Scenario = { name: 'direct', url: `${target.url}/items`, headers: {} };
const staticKey: Scenario = {
  name: 'proxy, static key',
  url: `${proxyServer.url}/connectors/${staticId}/proxy`,
  headers: targetHeaders,
};
const oauth: Scenario = {
  name: 'proxy, cached OAuth token',
  url: `${proxyServer.url}/connectors/${oauthId}/proxy`,
  headers: targetHeaders,
};
const fastifyScenario: Scenario = {
  name: '@fastify/http-proxy',
  url: `http://127.0.0.1:${fastifyPort}/items`,
  headers: {},
};
const uncached: Scenario = {
  name: 'proxy, static key, configCacheMs 0',
  url: `${uncachedServer.url}/connectors/${staticId}/proxy`,
  headers: targetHeaders,
};

const figures: Figure[] = [];
const rps = (scenario: Scenario, conns: number) => `${scenario.name}, ${conns} connections`;

// Throughput at the concurrency: the target is at least @fastify/http-proxy's figure.
const main = new Map<Scenario, Run>();
for (const scenario of [direct, staticKey, oauth, fastifyScenario, uncached])
  main.set(scenario, await run(scenario, connections, durationSeconds));
const fastifyRps = main.get(fastifyScenario)?.requestsPerSecond ?? 0;
const directRps = main.get(direct)?.requestsPerSecond ?? 0;
figures.push(plain(rps(direct, connections), directRps, 'req/s'));
for (const scenario of [staticKey, oauth]) {
  const value = main.get(scenario)?.requestsPerSecond ?? 0;
  figures.push(
    compared(
      rps(scenario, connections),
      value,
      'req/s',
      { label: rps(fastifyScenario, connections), value: fastifyRps },
      { target: '≥ @fastify/http-proxy', met: value >= fastifyRps },
    ),
  );
}
figures.push(
  compared(rps(fastifyScenario, connections), fastifyRps, 'req/s', {
    label: rps(direct, connections),
    value: directRps,
  }),
);
figures.push(
  compared(rps(uncached, connections), main.get(uncached)?.requestsPerSecond ?? 0, 'req/s', {
    label: rps(fastifyScenario, connections),
    value: fastifyRps,
  }),
);
for (const scenario of [staticKey, oauth, fastifyScenario]) {
  const p50 = main.get(scenario)?.p50Ms ?? 0;
  figures.push(
    compared(`${scenario.name}, autocannon p50, ${connections} connections`, p50, 'ms', {
      label: `direct, autocannon p50, ${connections} connections`,
      value: main.get(direct)?.p50Ms ?? 0,
    }),
  );
}

// Low concurrency, where added latency is what a caller notices.
for (const conns of lowConnections) {
  const low = new Map<Scenario, Run>();
  for (const scenario of [staticKey, oauth, fastifyScenario])
    low.set(scenario, await run(scenario, conns, lowDurationSeconds));
  const anchor = {
    label: rps(fastifyScenario, conns),
    value: low.get(fastifyScenario)?.requestsPerSecond ?? 0,
  };
  for (const scenario of [staticKey, oauth])
    figures.push(compared(rps(scenario, conns), low.get(scenario)?.requestsPerSecond ?? 0, 'req/s', anchor));
}

// Added latency, per request, in µs resolution.
const latencies = await measureSequential([direct, staticKey, oauth, fastifyScenario, uncached], rounds);
const directLatency = latencies[0];
for (const l of latencies) {
  console.info(
    `${l.name.padEnd(44)} sequential p50 ${l.p50Us} µs  p90 ${l.p90Us} µs  p99 ${l.p99Us} µs  (${l.samples})`,
  );
}
for (const l of latencies.slice(1)) {
  const added = (l.p50Us - (directLatency?.p50Us ?? 0)) / 1000;
  const isTarget = l.name === staticKey.name || l.name === oauth.name;
  figures.push(
    compared(
      `${l.name}, added p50 (sequential, hrtime)`,
      added,
      'ms',
      { label: 'direct p50 (sequential, hrtime)', value: (directLatency?.p50Us ?? 0) / 1000 },
      isTarget ? { target: '≤ 1 ms', met: added <= 1 } : undefined,
    ),
  );
  figures.push(
    plain(`${l.name}, added p99 (sequential, hrtime)`, (l.p99Us - (directLatency?.p99Us ?? 0)) / 1000, 'ms'),
  );
}
figures.push(plain('token requests during the run', tokens.requests.length, 'requests'));

// The handler called in this process, with a fixed caller: no HTTP server of the platform, no token, no environment
// read. The path users take is measured by apps/server/bench/user-path.bench.ts.
const report: BenchResult = {
  name: 'proxy',
  figures: figures.map((figure) => ({ ...figure, label: `handler alone: ${figure.label}` })),
};
const out = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/results/proxy.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
console.info(
  `database ${database.kind}, node ${process.version}; token requests: ${tokens.requests.length}; written ${out}`,
);

await fastify.close();
await proxyServer.close();
await uncachedServer.close();
await proxy.close();
await uncachedProxy.close();
targetProcess.kill();
await tokens.close();
await database.close();
await rm(dataDir, { recursive: true, force: true });
