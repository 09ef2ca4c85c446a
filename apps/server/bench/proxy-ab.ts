/**
 * `npm run bench:proxy-ab -w @platform/server -- <build A> <build B>`: which of two builds of the server spends less
 * CPU on a proxied request, where a req/s figure moves by 10–15 % from run to run. A build against itself has given
 * medians from 0.94 to 1.02 on a busy machine: weigh a change of a few percent with BENCH_ROUNDS=9, twice.
 *
 * Both builds run at once, pinned to the same core (`taskset`), each loaded by its own load generator on the other
 * core; the scheduler shares the core evenly, so B's req/s over A's is A's CPU per request over B's, whatever the
 * machine's speed does meanwhile. Same request as the user-path bench: a static-key connector, a verified token, a
 * loopback target. The load generators and the target share the other core: when that core is saturated (`top -H`:
 * the bench process near 100 %), the load generator sets part of the pace and every ratio is pulled toward 1, so a
 * change then looks smaller than it is. A build is a folder holding `bin/`, `dist/` and `package.json` of
 * apps/server (`.` is the current build); the `snapshot <folder>` form copies the current build there, to compare a
 * change against. The folder must lie inside the repository (`../../bench/raw/before`, which git ignores): the build's
 * imports resolve from the repository's node_modules, and a copy under /tmp fails with ERR_MODULE_NOT_FOUND.
 * BENCH_DURATION (s, 5), BENCH_ROUNDS (5), BENCH_CONNECTIONS (32); DATABASE_URL for PostgreSQL (both builds use it).
 * BENCH_ENV_B (`NAME=value ...`) gives B settings of its own, to weigh a setting on one build (`. .` with
 * `BENCH_ENV_B=LOG_LEVEL=warn`: what the request log costs).
 * Not part of `npm run bench`: it compares builds, not the product with its anchors.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startTestIssuer } from '../test/support/issuer.ts';
import { listen } from '../test/support/loopback-servers.ts';
import { publishStaticKeyConnector } from '../test/support/static-connector.ts';
import { type BenchServer, startBenchServer } from './support/server.ts';

const app = fileURLToPath(new URL('../', import.meta.url));
const [first, second] = process.argv.slice(2);

if (first === 'snapshot' && second) {
  const into = resolve(second);
  await mkdir(into, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json'])
    await cp(join(app, part), join(into, part), { recursive: true });
  console.info(`the current build is in ${into}`);
  process.exit(0);
}
if (!first || !second) {
  console.error('usage: proxy-ab.ts <build A> <build B> | proxy-ab.ts snapshot <folder>');
  process.exit(2);
}

/** BENCH_ENV_B: settings B runs with besides the common ones, `NAME=value` separated by spaces. */
const settingsOfB = Object.fromEntries(
  (process.env.BENCH_ENV_B ?? '')
    .split(' ')
    .filter((setting) => setting.includes('='))
    .map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)]),
);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const payload = JSON.stringify({
  data: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })),
});

const target = await listen((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(payload);
});
target.server.keepAliveTimeout = 5_000;
const issuer = await startTestIssuer();
const authorization = `Bearer ${await issuer.sign({ sub: 'demo|owner', roles: ['platform:read', 'platform:write'], expiresIn: 3600 })}`;
const servers: { server: BenchServer; dataDir: string }[] = [];

/** `platform-server start` of one build on core 1, on a data folder of its own with the demo data. */
const startBuild = async (build: string, isB: boolean): Promise<string> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'proxy-ab-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    AUTH_ISSUER: issuer.url,
    DEMO_DATA: 'true',
    RATE_LIMIT_PER_SECOND: '1000000000',
    PROXY_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
    ...(process.env.DATABASE_URL
      ? { DATABASE_URL: process.env.DATABASE_URL, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }
      : {}),
  };
  if (isB) Object.assign(env, settingsOfB);
  const server = await startBenchServer(env, {
    bin: join(resolve(build), 'bin', 'platform-server.js'),
    cpu: 1,
  });
  servers.push({ server, dataDir });
  return server.url;
};

/** A static-key connector on the server at `url`; its proxy route, checked once. */
const publish = async (url: string): Promise<string> => {
  const environment = `${url}/grafx/api/v1/environment/acme-prod`;
  const id = await publishStaticKeyConnector(environment, authorization, {
    name: 'proxy A/B',
    key: 'X-Api-Key',
    value: 'proxy-ab',
  });
  const proxy = `${environment}/connectors/${id}/proxy`;
  const check = await fetch(proxy, {
    headers: { authorization, 'x-grafx-proxy-external-url': `${target.url}/items` },
  });
  if (check.status !== 200) throw new Error(`${proxy}: ${check.status} ${await check.text()}`);
  return proxy;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  const urls = [await publish(await startBuild(first, false)), await publish(await startBuild(second, true))];
  const headers = { authorization, 'x-grafx-proxy-external-url': `${target.url}/items` };
  const both = (seconds: number) =>
    Promise.all(urls.map((url) => autocannon({ url, headers, connections, duration: seconds, workers: 1 })));
  await both(2);
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const [a, b] = await both(duration);
    if (a!.errors + a!.non2xx + b!.errors + b!.non2xx > 0)
      throw new Error('errors or answers other than 2xx');
    const ratio = b!.requests.average / a!.requests.average;
    ratios.push(ratio);
    console.info(
      `round ${round + 1}: A ${Math.round(a!.requests.average)} req/s, B ${Math.round(b!.requests.average)} req/s, B/A ${ratio.toFixed(3)}`,
    );
  }
  console.info(
    `B/A, median of ${rounds}: ${median(ratios).toFixed(3)} (above 1: B spends less CPU per request)`,
  );
} finally {
  for (const { server, dataDir } of servers) {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  await Promise.all([target.close(), issuer.close()]);
}
process.exit(0);
