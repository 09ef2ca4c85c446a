/**
 * `npm run bench -w @platform/server` (part of `npm run bench`): `/api/ping` while PostgreSQL is frozen (issue 23:
 * p99 ≤ 100 ms). The built server runs as a process, as users run it, on a PostgreSQL of the bench's own (Debian's
 * binaries) that is frozen with SIGSTOP; two clients meanwhile send requests that need the database (20 a second
 * each; answered 503).
 * Beside it, in the same run: ping with the database answering, and ping on the embedded PGlite default. Also how
 * long the first request that needs the database waits once it froze (target ≤ 5 s). Writes
 * bench/results/database-freeze.json; skipped with a note where Debian's PostgreSQL is not installed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownPostgresAvailable, startOwnPostgres } from '../test/support/own-postgres.ts';
import { type ServerChild, startServerChild } from '../test/support/server-child.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

const get = (url: string, token?: string) =>
  new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const begin = performance.now();
    request(url, { agent, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - begin }));
    })
      .on('error', reject)
      .end();
  });

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length * 0.99)] ?? Number.NaN) * 10) / 10;
};

/** Sequential pings for SECONDS; meanwhile `load` clients call `loadPath` (when given). */
const pingFor = async (server: ServerChild, loadPath?: string, token?: string) => {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const until = performance.now() + SECONDS * 1000;
  const loaders = loadPath
    ? [0, 1].map(async () => {
        // Paced (at most 20 a second each), so that the same load is offered whether they are answered at once
        // (503 while frozen) or after a query.
        while (performance.now() < until) {
          const next = performance.now() + 50;
          const { status } = await get(`${server.url}${loadPath}`, token);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        }
      })
    : [];
  while (performance.now() < until) {
    const { status, ms } = await get(`${server.url}/api/ping`);
    if (status !== 200) throw new Error(`ping answered ${status}`);
    times.push(ms);
  }
  await Promise.all(loaders);
  return { p99: p99(times), count: times.length, statuses: Object.fromEntries(statuses) };
};

const tokenOf = (server: ServerChild) => /export TOKEN=(\S+)/.exec(server.output.join(''))?.[1] ?? '';

const main = async () => {
  if (!ownPostgresAvailable()) {
    console.info('database-freeze bench skipped: Debian PostgreSQL binaries (/usr/lib/postgresql) not found');
    return;
  }
  const load = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  const folders: string[] = [];
  const folder = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'freeze-bench-'));
    folders.push(dir);
    return dir;
  };
  const devIssuer = { AUTH_ISSUER: '', DEV_ISSUER: 'true', DEMO_DATA: 'true', RATE_LIMIT_PER_SECOND: '0' };
  const pg = await startOwnPostgres();
  const servers: ServerChild[] = [];
  try {
    const embedded = await startServerChild({
      dataDir: await folder(),
      databaseUrl: undefined,
      issuerUrl: '',
      env: devIssuer,
    });
    servers.push(embedded);
    const pgliteIdle = await pingFor(embedded);
    await embedded.stop();

    const server = await startServerChild({
      dataDir: await folder(),
      databaseUrl: pg.url,
      issuerUrl: '',
      env: devIssuer,
    });
    servers.push(server);
    const token = tokenOf(server);
    const path = '/grafx/api/v1/environment/acme-prod/tags';
    const answering = await pingFor(server, path, token);

    pg.freeze();
    const first = await get(`${server.url}${path}`, token);
    const frozen = await pingFor(server, path, token);
    const readyFrozen = await get(`${server.url}/api/ready`);
    pg.thaw();

    const figures = [
      {
        label:
          'GET /api/ping p99, PostgreSQL frozen (SIGSTOP), 2 clients calling an endpoint that needs it (20/s each)',
        value: frozen.p99,
        unit: 'ms',
        anchor: { label: 'the same with PostgreSQL answering', value: answering.p99 },
        target: '≤ 100 ms',
        met: frozen.p99 <= 100,
      },
      {
        label: 'GET /api/ping p99 on the embedded PGlite default (idle)',
        value: pgliteIdle.p99,
        unit: 'ms',
      },
      {
        label: 'first request needing the database after the freeze: time to its 503',
        value: Math.round(first.ms),
        unit: 'ms',
        target: '503 within 5000 ms',
        met: first.status === 503 && first.ms <= 5000,
      },
      {
        label: 'GET /api/ready while frozen (answers 503 at once)',
        value: Math.round(readyFrozen.ms * 10) / 10,
        unit: 'ms',
        target: '503',
        met: readyFrozen.status === 503,
      },
      {
        label: `load average (1 min) at the start of this run, ${cpus().length} cores`,
        value: load,
        unit: '',
      },
    ];
    for (const figure of figures) {
      const anchor =
        'anchor' in figure && figure.anchor ? ` (${figure.anchor.label}: ${figure.anchor.value})` : '';
      console.info(`${figure.label}: ${figure.value} ${figure.unit}${anchor}`);
    }
    console.info('statuses while answering', answering.statuses, 'while frozen', frozen.statuses);
    const results = join(root, 'bench/results');
    await mkdir(results, { recursive: true });
    await writeFile(
      join(results, 'database-freeze.json'),
      `${JSON.stringify({ name: 'database-freeze', at: new Date().toISOString(), database: 'PostgreSQL (own, frozen with SIGSTOP) and embedded PGlite', figures }, null, 2)}\n`,
    );
  } finally {
    pg.thaw();
    for (const server of servers) await server.stop();
    await pg.stop();
    agent.destroy();
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  }
};

await main();
