/**
 * `npm run soak -w @platform/server` (not part of `npm test`): the real `platform-server start` in a process of
 * its own under SOAK_SECONDS (default 300) of mixed load — reads of the admin and environment APIs, render-event
 * ingestion, proxied calls to a loopback target — with the server's resident memory sampled every second.
 * Memory is flat when the slope of its floor after the warm-up (SOAK_WARMUP_SECONDS, default 60) stays below
 * SLOPE_LIMIT_MIB_PER_MIN: the regression runs over the lowest RSS of each 30 s window, because raw samples mostly
 * trace the garbage collector's sawtooth while a leak lifts what remains after each collection. The slope of the raw
 * samples is reported beside it. Writes bench/results/soak.json for bench/REPORT.md.
 * PostgreSQL when TEST_DATABASE_URL is set, else PGlite.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { ENV_DEV, ENV_PROD, fixture, SUB_A, USERS } from '../support/fixture.ts';
import { startTestIssuer } from '../support/issuer.ts';
import { startServerChild } from '../support/server-child.ts';
import { publishStaticKeyConnector } from '../support/static-connector.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.min(60, SECONDS / 5));
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
/** Flat: an RSS slope after the warm-up below this many MiB per minute (a leak of 1 KiB per request at this load is about 60 MiB/min). */
const SLOPE_LIMIT_MIB_PER_MIN = 1;

const backends = await testBackends();
const backend = backends.find((b) => b.name === 'postgres') ?? backends[0]!;
const database = await backend.fresh();
await importDataFile(database, fixture(new Date()));
const dataDir = database.dataDir;
const databaseUrl = database.databaseUrl;
await database.detach(); // the child owns the database (PGlite allows one process)

const issuer = await startTestIssuer();
const target = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: Array.from({ length: 20 }, (_, i) => ({ id: i, path: req.url })) }));
  });
});
await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

const server = await startServerChild({ dataDir, databaseUrl, issuerUrl: issuer.url });
const owner = `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] })}`;
const ingest = `Bearer ${await issuer.sign({ sub: 'ingest|soak', roles: ['platform:ingest'], expiresIn: 7200 })}`;
const base = `${server.url}/grafx/api/v1/environment/acme-prod`;
const connectorId = await publishStaticKeyConnector(base, owner, {
  name: 'Soak',
  key: 'X-Api-Key',
  value: 'soak-secret',
});

// The owner token must outlive the run: a fresh one every 5 minutes.
let reader = owner;
const refresh = setInterval(async () => {
  reader = `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] })}`;
}, 5 * 60_000);

type Call = { kind: 'read' | 'ingest' | 'proxy'; request: () => Promise<Response> };
const reads = [
  '/api/v1/subscriptions',
  `/api/v1/subscriptions/${SUB_A}`,
  `/api/v1/subscriptions/${SUB_A}/renders?groupBy=year&top=3`,
  `/api/v1/environments?subscriptionId=${SUB_A}`,
  `/api/v1/environments/${ENV_PROD}/renders?groupBy=month`,
  `/api/v1/subscriptions/${SUB_A}/users`,
  '/grafx/api/v1/environment/acme-prod/connectors',
  '/grafx/api/v1/environment/acme-prod/templates?limit=20',
];
let n = 0;
const nextCall = (): Call => {
  n++;
  const slot = n % 4;
  if (slot === 0) {
    return {
      kind: 'ingest',
      request: () =>
        fetch(`${server.url}/api/v1/render-events`, {
          method: 'POST',
          headers: { authorization: ingest, 'content-type': 'application/json' },
          body: JSON.stringify(
            Array.from({ length: 100 }, (_, i) => ({
              environmentGuid: i % 2 ? ENV_PROD : ENV_DEV,
              kind: i % 3 ? 'Pdf' : 'Image',
              watermarked: i % 10 === 0,
              at: new Date(Date.now() - (i % 30) * 86_400_000).toISOString(),
            })),
          ),
        }),
    };
  }
  if (slot === 1) {
    return {
      kind: 'proxy',
      request: () =>
        fetch(`${base}/connectors/${connectorId}/proxy`, {
          headers: { authorization: reader, 'x-grafx-proxy-external-url': `${targetUrl}/items?n=${n}` },
        }),
    };
  }
  const path = reads[n % reads.length]!;
  return {
    kind: 'read',
    request: () => fetch(`${server.url}${path}`, { headers: { authorization: reader } }),
  };
};

const counts = { read: 0, ingest: 0, proxy: 0, serverErrors: 0, failures: 0 };
const start = Date.now();
const end = start + SECONDS * 1000;
const samples: { t: number; rss: number }[] = [];
const sampler = setInterval(async () => {
  samples.push({ t: (Date.now() - start) / 1000, rss: await server.rss() });
  const last = samples.at(-1)!;
  if (samples.length % 30 === 0) {
    console.info(
      `[soak] ${Math.round(last.t)} s  rss ${(last.rss / 2 ** 20).toFixed(1)} MiB  requests ${counts.read + counts.ingest + counts.proxy}`,
    );
  }
}, 1000);

const worker = async () => {
  while (Date.now() < end) {
    const call = nextCall();
    try {
      const response = await call.request();
      await response.arrayBuffer();
      counts[call.kind]++;
      if (response.status >= 500) counts.serverErrors++;
    } catch {
      counts.failures++;
    }
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
clearInterval(sampler);
clearInterval(refresh);

/** Least-squares slope of rss (MiB) over time (minutes). */
const slope = (points: { t: number; rss: number }[]) => {
  const xs = points.map((p) => p.t / 60);
  const ys = points.map((p) => p.rss / 2 ** 20);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
};
const steady = samples.filter((s) => s.t >= WARMUP);
/** The lowest sample of each 30 s window, placed at the window's middle: what survives the collections. */
const FLOOR_WINDOW_SECONDS = 30;
const floorOf = (points: { t: number; rss: number }[]) => {
  const minima = new Map<number, number>();
  for (const p of points) {
    const w = Math.floor(p.t / FLOOR_WINDOW_SECONDS);
    minima.set(w, Math.min(minima.get(w) ?? Number.POSITIVE_INFINITY, p.rss));
  }
  return [...minima].map(([w, rss]) => ({ t: (w + 0.5) * FLOOR_WINDOW_SECONDS, rss }));
};
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const steadySlope = Math.round(slope(steady) * 1000) / 1000;
const wholeSlope = Math.round(slope(samples) * 1000) / 1000;
const floorSlope = Math.round(slope(floorOf(steady)) * 1000) / 1000;
const total = counts.read + counts.ingest + counts.proxy;
const seconds = (Date.now() - start) / 1000;
const report = {
  name: 'soak',
  at: new Date().toISOString(),
  backend: backend.name,
  figures: [
    {
      label: `server RSS floor slope after ${WARMUP} s warm-up (minimum of each ${FLOOR_WINDOW_SECONDS} s; ${SECONDS} s of mixed load, ${CONCURRENCY} clients)`,
      value: floorSlope,
      unit: 'MiB/min',
      anchor: { label: 'slope of the raw samples after the warm-up', value: steadySlope },
      target: `< ${SLOPE_LIMIT_MIB_PER_MIN} MiB/min (flat)`,
      met: floorSlope < SLOPE_LIMIT_MIB_PER_MIN,
    },
    {
      label: 'server RSS slope over the whole run, warm-up included',
      value: wholeSlope,
      unit: 'MiB/min',
    },
    {
      label: 'server RSS at the end of the run',
      value: mib(samples.at(-1)?.rss ?? 0),
      unit: 'MiB',
      anchor: { label: 'RSS at the end of the warm-up', value: mib(steady[0]?.rss ?? 0) },
    },
    {
      label: 'requests answered (reads / ingest batches of 100 / proxied)',
      value: Math.round(total / seconds),
      unit: 'req/s',
      anchor: { label: 'of which proxied, req/s', value: Math.round(counts.proxy / seconds) },
    },
    {
      label: '5xx answers and failed requests during the soak',
      value: counts.serverErrors + counts.failures,
      unit: 'responses',
      target: '0',
      met: counts.serverErrors + counts.failures === 0,
    },
  ],
  counts,
  samples: samples.map((s) => [Math.round(s.t), mib(s.rss)]),
};
const out = fileURLToPath(new URL('../../../../bench/results/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(`${out}soak.json`, `${JSON.stringify(report, null, 2)}\n`);
console.info(
  `[soak] ${total} requests (${JSON.stringify(counts)}), RSS floor slope after warm-up ${floorSlope} MiB/min (raw ${steadySlope}, whole run ${wholeSlope}); written bench/results/soak.json`,
);

await server.stop();
target.close();
await issuer.close();
await database.close(); // detached already: drops the soak database and its folder
process.exit(report.figures[0]!.met && report.figures[4]!.met ? 0 : 1);
