/**
 * `npm run bench -w @platform/server` (user-path): the paths users take, measured as they meet them. The built
 * `platform-server start` in a process of its own, on the embedded default (PGlite) and on PostgreSQL (when
 * TEST_DATABASE_URL is set), with the demo data, trusting a loopback issuer whose tokens it verifies as in
 * production. Through HTTP with that token, interleaved in rounds, medians (a ratio to nginx: the median of the
 * per-round ratios, support/load.ts pairedRatio); autocannon in a worker thread, every
 * answer's latency timed to the microsecond (support/load-worker.mjs), so a p99 ratio is not one of whole milliseconds:
 *   - the proxy route with a static key and with a cached OAuth token (client credentials) to a loopback target,
 *     at 8 and 32 connections, beside a direct call to the target and Debian's nginx (one worker, the same header
 *     injection) started here with its own prefix (skipped, with a note, when not installed), and a bare Node proxy
 *     (Node's http server and an undici Pool, the same injection and nothing else: the floor of any proxy on Node);
 *   - the added latency over a direct call, timed per request (microseconds);
 *   - `GET .../connectors` and a template read of the environment API, the admin API's subscription read, each
 *     beside a bare Express handler answering the same bytes.
 * Writes bench/results/user-path.json at the repository root. BENCH_DURATION (s, 5), BENCH_ROUNDS (5),
 * BENCH_CPU_PROF=folder (V8 CPU profiles of the servers).
 */
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TestBackend, testBackends } from '@platform/store/testing';
import express from 'express';
import { type BenchResult, compared, type Figure, plain } from '../../../packages/proxy/bench/figures.ts';
import { measureSequential } from '../../../packages/proxy/bench/sequential-latency.ts';
import { buildPrograms } from '../../../tools/build-for-tests.ts';
import { startTestIssuer } from '../test/support/issuer.ts';
import { listen, startTokenServer } from '../test/support/loopback-servers.ts';
import { startBareNodeProxy } from './support/bare-node-proxy.ts';
import { interleaved, pairedRatio, type Runs, type Scenario } from './support/load.ts';
import { startNginx } from './support/nginx.ts';
import { startBenchServer } from './support/server.ts';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const PROXY_CONNECTIONS = [8, 32];
const READ_CONNECTIONS = 32;
const OWNER = 'demo|owner';
const ENVIRONMENT = 'acme-prod';
const STATIC_KEY = { name: 'X-Api-Key', value: 'bench-static-key' };
const payload = JSON.stringify({
  data: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })),
});

// The bin runs dist/: bundled from the current sources first, so the bench never measures an old build.
buildPrograms(new URL('../', import.meta.url))();
const loadAtStart = loadavg()[0]!;

/**
 * The machine's own speed, to compare runs of different days: the same fixed loop of arithmetic, timed (ms). A shared
 * machine's CPU can be a third slower one hour than the next; req/s figures move with it, ratios to anchors far less.
 */
const calibrate = (): number => {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < 200_000_000; i++) sum += i % 7;
  if (sum < 0) throw new Error('unreachable: keeps the loop from being removed');
  return Math.round(performance.now() - started);
};
const speedAtStart = calibrate();
const figures: Figure[] = [];
const notes: string[] = [];

// The loopback target every proxy scenario calls (keep-alive as Node's default, 5 s: the tests' 1 s target
// tells clients to reconnect for nearly every request), and the token endpoint of the OAuth connector.
const target = await listen((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(payload);
});
target.server.keepAliveTimeout = 5_000;
const tokenServer = await startTokenServer();
const issuer = await startTestIssuer();
const token = await issuer.sign({ sub: OWNER, roles: ['platform:read', 'platform:write'], expiresIn: 3600 });
const authorization = `Bearer ${token}`;
const nginx = await startNginx(target.url, STATIC_KEY);
if (typeof nginx === 'string') notes.push(`nginx skipped: ${nginx}`);
const bareProxy = await startBareNodeProxy(target.url, STATIC_KEY);
const bare = express();
const bareServer = bare.listen(0, '127.0.0.1');
await once(bareServer, 'listening');
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

/**
 * A proxy's req/s against nginx's in the same rounds: the ratio (and the target, when `atLeast` is given) is the
 * median of the per-round ratios (pairedRatio), the req/s shown are the medians over the rounds.
 */
const againstNginx = (name: string, run: Runs, nginxRun: Runs, atLeast?: number): Figure => {
  const ratio = Math.round(pairedRatio(run, nginxRun) * 1000) / 1000;
  return {
    ...compared(name, run.requestsPerSecond, 'req/s', { label: 'nginx', value: nginxRun.requestsPerSecond }),
    ratio,
    ...(atLeast === undefined ? {} : { target: `≥ ${atLeast}× nginx`, met: ratio >= atLeast }),
  };
};

const call = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, {
    ...init,
    headers: { authorization, 'content-type': 'application/json', ...(init.headers as object) },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { response, text, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
};

/** The same bytes and content type as the platform's answer, from a bare Express handler. */
const bareTwin = async (name: string, url: string): Promise<string> => {
  const { response, text } = await call(url);
  const body = Buffer.from(text);
  const type = response.headers.get('content-type') ?? 'application/json';
  bare.get(`/${name}`, (_req, res) => {
    res.type(type).send(body);
  });
  return `${bareUrl}/${name}`;
};

const benchBackend = async (backend: TestBackend) => {
  const label = backend.name === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
  console.info(`\n${label}`);
  const database = await backend.fresh();
  await database.detach();
  const env = {
    DATA_DIR: database.dataDir,
    AUTH_ISSUER: issuer.url,
    DEMO_DATA: 'true',
    // Runs on every request, but never answers 429 to a load generator that is one user.
    RATE_LIMIT_PER_SECOND: '1000000000',
    PROXY_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
    ...(database.databaseUrl
      ? { DATABASE_URL: database.databaseUrl, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }
      : {}),
  };
  const server = await startBenchServer(env);
  try {
    const connectors = `${server.url}/grafx/api/v1/environment/${ENVIRONMENT}/connectors`;
    const publish = async (auth: { kind: string; body: Record<string, unknown> }) => {
      const { body } = await call(connectors, {
        method: 'POST',
        body: JSON.stringify({
          name: `bench ${auth.kind}`,
          version: '1.0.0',
          type: 'data',
          script: 'export default class Connector {}',
          allowedDomains: ['127.0.0.1'],
          supportedAuth: ['staticKey', 'oAuth2ClientCredentials'],
        }),
      });
      const id = String(body?.id);
      await call(`${connectors}/${id}/auth/${auth.kind}`, {
        method: 'PUT',
        body: JSON.stringify({ usage: 'browser', ...auth.body }),
      });
      return `${connectors}/${id}/proxy`;
    };
    const staticProxy = await publish({
      kind: 'static',
      body: { key: STATIC_KEY.name, value: STATIC_KEY.value },
    });
    const oauthProxy = await publish({
      kind: 'oauth-client-credentials',
      body: { clientId: 'bench', clientSecret: 'bench-secret', tokenEndpoint: `${tokenServer.url}/token` },
    });
    const { body: template } = await call(`${server.url}/grafx/api/v1/environment/${ENVIRONMENT}/templates`, {
      method: 'POST',
      body: JSON.stringify({ name: 'bench template' }),
    });
    const { body: subscriptions } = await call(`${server.url}/api/v1/subscriptions`);
    const subscription = (subscriptions as unknown as { guid: string }[])[0]!.guid;

    const withToken = { authorization };
    const proxied = { ...withToken, 'x-grafx-proxy-external-url': `${target.url}/items` };
    const direct: Scenario = { name: 'direct', url: `${target.url}/items`, headers: {} };
    const nginxScenario: Scenario[] =
      typeof nginx === 'string' ? [] : [{ name: 'nginx', url: `${nginx.url}/items`, headers: {} }];
    const staticScenario: Scenario = { name: 'proxy route, static key', url: staticProxy, headers: proxied };
    const oauthScenario: Scenario = {
      name: 'proxy route, cached OAuth token',
      url: oauthProxy,
      headers: proxied,
    };
    const bareProxyScenario: Scenario = {
      name: 'bare Node proxy',
      url: `${bareProxy.url}/items`,
      headers: {},
    };
    const proxyScenarios = [direct, ...nginxScenario, bareProxyScenario, staticScenario, oauthScenario];

    for (const connections of PROXY_CONNECTIONS) {
      const runs = await interleaved(proxyScenarios, connections, rounds, duration);
      const nginxRun = runs.get('nginx');
      figures.push(
        plain(
          `${label}: direct call, ${connections} connections`,
          runs.get('direct')!.requestsPerSecond,
          'req/s',
        ),
      );
      if (nginxRun) {
        figures.push(
          plain(`${label}: nginx, ${connections} connections`, nginxRun.requestsPerSecond, 'req/s'),
        );
      }
      // An anchor with no target of its own: how far below nginx Node's HTTP stack alone stands on this machine.
      const bareRun = runs.get(bareProxyScenario.name)!;
      const bareLabel = `${label}: bare Node proxy (http + undici, nothing else), ${connections} connections`;
      figures.push(
        nginxRun
          ? againstNginx(bareLabel, bareRun, nginxRun)
          : plain(bareLabel, bareRun.requestsPerSecond, 'req/s'),
      );
      for (const scenario of [staticScenario, oauthScenario]) {
        const run = runs.get(scenario.name)!;
        const name = `${label}: ${scenario.name}, ${connections} connections`;
        if (!nginxRun) {
          figures.push(plain(name, run.requestsPerSecond, 'req/s'), plain(`${name}, p99`, run.p99Ms, 'ms'));
          continue;
        }
        figures.push(
          againstNginx(name, run, nginxRun, 0.5),
          compared(
            `${name}, p99`,
            run.p99Ms,
            'ms',
            { label: 'nginx p99', value: nginxRun.p99Ms },
            {
              target: '≤ 3× nginx',
              met: run.p99Ms <= 3 * nginxRun.p99Ms,
            },
          ),
        );
      }
    }

    // Added latency: one request at a time on one keep-alive connection, timed in microseconds.
    const latency = await measureSequential(proxyScenarios, rounds * 3, 200);
    const directP50 = latency.find((l) => l.name === 'direct')!.p50Us;
    for (const l of latency) {
      if (l.name === 'direct') continue;
      const added = (l.p50Us - directP50) / 1000;
      figures.push(
        l.name === 'nginx' || l.name === bareProxyScenario.name
          ? plain(`${label}: ${l.name}, added p50 over a direct call`, added, 'ms')
          : {
              ...compared(`${label}: ${l.name}, added p50 over a direct call`, added, 'ms', {
                label: 'direct p50 (ms)',
                value: directP50 / 1000,
              }),
              target: '≤ 0.5 ms',
              met: added <= 0.5,
            },
      );
    }

    const envPath = `${server.url}/grafx/api/v1/environment/${ENVIRONMENT}`;
    const reads = [
      { name: 'GET .../connectors', url: `${envPath}/connectors`, env: true },
      { name: 'template read', url: `${envPath}/templates/${String(template?.id)}`, env: true },
      {
        name: 'admin subscription read',
        url: `${server.url}/api/v1/subscriptions/${subscription}`,
        env: false,
      },
    ];
    const readScenarios: Scenario[] = [];
    for (const [i, read] of reads.entries()) {
      readScenarios.push(
        { name: read.name, url: read.url, headers: withToken },
        {
          name: `bare Express, ${read.name}`,
          url: await bareTwin(`${backend.name}-${i}`, read.url),
          headers: {},
        },
      );
    }
    const runs = await interleaved(readScenarios, READ_CONNECTIONS, rounds, duration);
    for (const read of reads) {
      const run = runs.get(read.name)!;
      const twin = runs.get(`bare Express, ${read.name}`)!;
      const anchor = { label: 'bare Express, same bytes', value: twin.requestsPerSecond };
      const name = `${label}: ${read.name}, ${READ_CONNECTIONS} connections`;
      figures.push(
        compared(
          name,
          run.requestsPerSecond,
          'req/s',
          anchor,
          read.env
            ? { target: '≥ 5,000 req/s', met: run.requestsPerSecond >= 5000 }
            : { target: '≥ 0.8× bare Express', met: run.requestsPerSecond >= 0.8 * twin.requestsPerSecond },
        ),
      );
    }
    if (database.databaseUrl) await benchWorkers(label, env, server.url, [staticScenario, readScenarios[0]!]);
  } finally {
    await server.stop();
    await database.close();
  }
};

/**
 * WORKERS=auto beside the one process, on the same database at the same time: the proxy route and a read of the
 * environment API through each, interleaved.
 */
const benchWorkers = async (
  label: string,
  env: Record<string, string>,
  oneUrl: string,
  scenarios: Scenario[],
) => {
  // A data folder of its own: server.json there names this server.
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-workers-'));
  const clustered = await startBenchServer({ ...env, DATA_DIR: dataDir, WORKERS: 'auto' });
  try {
    const workers = availableParallelism();
    const twins = scenarios.flatMap((scenario) => [
      scenario,
      {
        ...scenario,
        name: `${scenario.name}, WORKERS=${workers}`,
        url: scenario.url.replace(oneUrl, clustered.url),
      },
    ]);
    // The workers are fresh processes beside a warm one: a longer warm-up, so JIT and pools are not what is measured.
    const runs = await interleaved(twins, READ_CONNECTIONS, rounds, duration, Math.max(3, duration));
    for (const scenario of scenarios) {
      const one = runs.get(scenario.name)!;
      const many = runs.get(`${scenario.name}, WORKERS=${workers}`)!;
      figures.push(
        compared(
          `${label}: ${scenario.name}, WORKERS=${workers}, ${READ_CONNECTIONS} connections`,
          many.requestsPerSecond,
          'req/s',
          { label: 'one process', value: one.requestsPerSecond },
        ),
      );
    }
  } finally {
    await clustered.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

try {
  for (const backend of await testBackends()) await benchBackend(backend);
} finally {
  if (typeof nginx !== 'string') await nginx.stop();
  await bareProxy.stop();
  bareServer.close();
  await Promise.all([target.close(), tokenServer.close(), issuer.close()]);
}

const loadAtEnd = loadavg()[0]!;
const speedAtEnd = calibrate();
const cores = availableParallelism();
notes.push(
  `One process each. Load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end on ${cores} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}); ${rounds} interleaved rounds of ${duration} s, medians; a ratio to nginx is the median of the ${rounds} per-round ratios (each round's runs follow one another within seconds).`,
  `Machine speed: a fixed loop of 200 million additions took ${speedAtStart} ms at the start and ${speedAtEnd} ms at the end (lower is faster); compare it before comparing req/s across runs.`,
);
// The load generator, the target and nginx run on the same cores: with other work there, the figures prove the
// bench runs and compare what shares a run, not what the platform can do. Only the load at the start tells of
// other work: by the end, the one-minute average counts the bench's own processes (server, load generator, nginx),
// which keep two cores busy by design.
if (loadAtStart > cores) {
  notes.push(
    "**Loaded machine**: more runnable work than cores (other processes); these figures are not the product's.",
  );
}
const result: BenchResult & { notes: string[] } = { name: 'user-path', figures, notes };
const out = fileURLToPath(new URL('../../../bench/results/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(`${out}user-path.json`, `${JSON.stringify(result, null, 2)}\n`);
console.info(`\n${notes.join('\n')}\nwritten: bench/results/user-path.json`);
