/**
 * `npm run bench -w @platform/server` (api): the real platform in this process (PostgreSQL when TEST_DATABASE_URL is set,
 * else PGlite), a subscription of 50 environments with a year of render events, and autocannon (in a worker
 * thread, off the server's event loop) at 50 connections against
 *   GET /api/v1/subscriptions/{id}  and  GET /api/v1/subscriptions/{id}/renders?groupBy=year&top=5
 * with a development-issuer token, each beside a bare Express handler answering the same bytes in the same run.
 * Prints requests/s, p50/p99 and the ratios; writes bench/results/api.json at the repository root.
 * Options: --duration=SECONDS (10), --events=N (1,000,000 on PostgreSQL, 300,000 on PGlite).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { importDataFile, ingestRenderEvents, type RenderEventInput } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import express from 'express';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startPlatform } from '../src/platform.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const value = args.find((a) => a.startsWith(`--${name}=`));
  return value ? Number(value.split('=')[1]) : undefined;
};
const CONNECTIONS = 50;
const ENVIRONMENTS = 50;
const DAY = 86_400_000;
const KINDS = ['Pdf', 'Image', 'Studio-Gif', 'Mp4'];
const USER = 'bench|owner';
const duration = flag('duration') ?? 10;

const backends = await testBackends();
const backend =
  backends.find((b) => b.name === 'postgres' && b.source === 'TEST_DATABASE_URL') ?? backends[0]!;
const onPostgres = backend.name === 'postgres';
const eventCount = flag('events') ?? (onPostgres ? 1_000_000 : 300_000);
const database = await backend.fresh();

// The server configuration as an operator would write it: the development issuer (AUTH_ISSUER unset), the
// default rate limiter raised out of reach (so it runs on every request but never answers 429), logs at info.
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: database.dataDir,
  DEMO_DATA: 'false',
  RATE_LIMIT_PER_SECOND: '1000000000',
  LOG_LEVEL: 'info',
  // The development issuer on PostgreSQL too: asked for by name (docs/configuration.md).
  DEV_ISSUER: 'true',
  ...(database.databaseUrl
    ? { DATABASE_URL: database.databaseUrl, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }
    : {}),
});
// A real pino destination (a file descriptor, written synchronously as on stdout), discarded.
const log = pino({ level: config.logLevel }, pino.destination({ dest: '/dev/null', sync: true }));
const platform = await startPlatform(config, log, database);
const bare = express();
const bareServer = bare.listen(0, '127.0.0.1');
await once(bareServer, 'listening');
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

try {
  const subscriptionGuid = randomUUID();
  const environments = Array.from({ length: ENVIRONMENTS }, (_, i) => ({
    id: i + 1,
    guid: randomUUID(),
    name: `Environment ${String(i + 1).padStart(2, '0')}`,
    type: (['Production', 'Sandbox', 'Development'] as const)[i % 3],
  }));
  await importDataFile(database, {
    users: [{ id: USER, email: 'owner@bench.example', firstName: 'Bench', lastName: 'Owner' }],
    subscriptions: [
      {
        id: 1,
        guid: subscriptionGuid,
        name: 'bench',
        clientId: randomUUID(),
        subscriptionType: 'Saas',
        pricebookVersion: '2025.1',
        subscriptionTier: 'Enterprise',
        environments,
        members: [{ userId: USER, subscriptionRoles: ['SubscriptionOwner'], environmentRoles: {} }],
      },
    ],
  });
  // A year of render events up to today, 10 % watermarked, ingested as the API would in batches of 10,000.
  const now = Date.now();
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (let done = 0; done < eventCount; done += 10_000) {
    const batch: RenderEventInput[] = Array.from({ length: Math.min(10_000, eventCount - done) }, () => ({
      environmentGuid: environments[Math.floor(random() * ENVIRONMENTS)]!.guid,
      kind: KINDS[Math.floor(random() * KINDS.length)]!,
      watermarked: random() < 0.1,
      at: new Date(now - Math.floor(random() * 365 * DAY)).toISOString(),
    }));
    await ingestRenderEvents(database, batch);
  }
  await database.db.execute(sql`analyze`);

  const token = await platform.devIssuer!.mint({ sub: USER, roles: ['platform:read'], ttlSeconds: 3600 });
  const headers = { authorization: `Bearer ${token}` };
  const paths = {
    subscription: `/api/v1/subscriptions/${subscriptionGuid}`,
    renders: `/api/v1/subscriptions/${subscriptionGuid}/renders?groupBy=year&top=5`,
  };

  // The bare handlers answer exactly the bytes the platform answers, with the same content type.
  for (const [name, path] of Object.entries(paths)) {
    const response = await fetch(`${platform.url}${path}`, { headers });
    if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
    const body = Buffer.from(await response.arrayBuffer());
    const type = response.headers.get('content-type') ?? 'application/json';
    bare.get(`/${name}`, (_req, res) => {
      res.type(type).send(body);
    });
    console.info(`${name}: ${body.length} bytes`);
  }

  type Run = { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  const load = async (label: string, url: string, withToken: boolean): Promise<Run> => {
    const options = {
      url,
      connections: CONNECTIONS,
      headers: withToken ? headers : {},
      workers: 1,
    };
    await autocannon({ ...options, duration: 2 }); // warm-up: pools, caches, JIT
    const result = await autocannon({ ...options, duration });
    // Timeouts or error answers are reported, not hidden: they make the figures of this run suspect.
    if (result.errors > 0 || result.non2xx > 0) {
      console.warn(`${label}: ${result.errors} errors, ${result.non2xx} answers other than 2xx`);
    }
    const run = {
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
    };
    console.info(
      `${label.padEnd(26)} ${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms`,
    );
    return run;
  };

  console.info(
    `backend ${backend.name}, ${eventCount.toLocaleString('en')} render events, ${CONNECTIONS} connections, ${duration} s each`,
  );
  const runs = {
    subscription: {
      platform: await load('subscription (platform)', `${platform.url}${paths.subscription}`, true),
      bare: await load('subscription (bare)', `${bareUrl}/subscription`, false),
    },
    renders: {
      platform: await load('renders (platform)', `${platform.url}${paths.renders}`, true),
      bare: await load('renders (bare)', `${bareUrl}/renders`, false),
    },
  };

  const round = (value: number) => Math.round(value * 100) / 100;
  const targets = { subscription: 0.5, renders: 0.3 } as const;
  const on = `(${backend.name}, ${CONNECTIONS} connections)`;
  const figures = (Object.keys(runs) as (keyof typeof runs)[]).flatMap((name) => {
    const { platform: p, bare: b } = runs[name];
    const ratio = round(p.requestsPerSecond / b.requestsPerSecond);
    console.info(
      `${name}: ${ratio}× the bare handler (target ≥ ${targets[name]}×), p99 ${p.p99Ms} ms (target ≤ 25 ms)`,
    );
    return [
      {
        label: `GET ${name === 'subscription' ? '/subscriptions/{id}' : '/subscriptions/{id}/renders?groupBy=year&top=5'} ${on}`,
        value: p.requestsPerSecond,
        unit: 'req/s',
        anchor: b.requestsPerSecond,
        ratio,
        target: `≥ ${targets[name]}× bare Express`,
        met: ratio >= targets[name],
      },
      { label: `${name} p50 ${on}`, value: p.p50Ms, unit: 'ms', anchor: b.p50Ms },
      {
        label: `${name} p99 ${on}`,
        value: p.p99Ms,
        unit: 'ms',
        anchor: b.p99Ms,
        target: '≤ 25',
        met: p.p99Ms <= 25,
      },
      { label: `${name}, bare Express handler, same bytes ${on}`, value: b.requestsPerSecond, unit: 'req/s' },
    ];
  });
  const out = fileURLToPath(new URL('../../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(`${out}api.json`, `${JSON.stringify({ name: 'api', figures }, null, 2)}\n`);
  console.info('written: bench/results/api.json');
} finally {
  bareServer.close();
  await platform.close();
  await database.close();
}
