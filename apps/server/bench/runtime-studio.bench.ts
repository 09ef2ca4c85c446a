/**
 * `tsx bench/runtime-studio.bench.ts` (part of `npm run bench -w @platform/server`): a Studio-shaped load on the
 * connector runtime, on the user's path. The built server in a process of its own, on the embedded PGlite and (with
 * TEST_DATABASE_URL) PostgreSQL; N editors (8, then 32), each a user of its own with a token of the server's
 * development issuer, each browsing pages of a media connector as Studio's media panel does: one `media/query` that
 * lists 15 assets, then their 15 `mediumres` downloads, at most 6 at a time (a browser's connections to one host).
 * The connector fetches from a loopback image API (30 KB `image/jpeg` answers). Beside it in the same run, rounds
 * interleaved, the same pages through the plain proxy route (`/connectors/{id}/proxy`, the listing and the 15 images
 * by `x-grafx-proxy-external-url`): the anchor. Targets: run-route downloads ≥ 0.5× the proxy route's throughput,
 * their p99 ≤ 3× its p99, every answer 200.
 * BENCH_DURATION (s, default 5) per phase, BENCH_ROUNDS (default 3). Writes bench/results/runtime-studio.json.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { type TestBackend, testBackends } from '@platform/store/testing';
import { buildPrograms } from '../../../tools/build-for-tests.ts';
import { listen } from '../test/support/loopback-servers.ts';
import type { Figure } from './figure.ts';
import {
  loadNote,
  Outcomes,
  outcomeOf,
  postJson,
  round,
  startRuntimeBenchServer,
  userOf,
  writeRuntimeResults,
} from './support/runtime-tenants.ts';
import { percentile } from './support.ts';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const EDITORS = [8, 32];
const TENANT = 'studio';
const PAGE = 15;
/** Each route's warm-up before a count of editors is measured. */
const WARM_SECONDS = 5;
/** A browser's connections to one host (HTTP/1.1): an editor's downloads in flight at once. */
const PER_EDITOR = 6;
/** 30 KB that start as a JPEG does (SOI, APP0), the rest random: a `mediumres` rendition's size. */
const IMAGE = Buffer.concat([Buffer.from('ffd8ffe000104a46494600', 'hex'), randomBytes(30 * 1024 - 11)]);

/** A DAM's media connector, as Studio's connectors are written: the listing by `query`, each image by `download`. */
const connector = `
export default class StudioBench {
  constructor(runtime) { this.runtime = runtime; this.assets = {}; }
  async query(options, context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/assets?size=' + options.pageSize, {
      method: 'GET', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new ConnectorHttpError(response.status, 'query failed: ' + response.status);
    const body = JSON.parse(response.text);
    for (const item of body.items) this.assets[item.id] = item;
    return {
      pageSize: options.pageSize,
      data: body.items.map((item) => ({ id: item.id, name: item.name, relativePath: '/', type: 0, metaData: {} })),
      links: { nextPage: '' },
    };
  }
  async detail(id) { return { id, name: id, relativePath: '/', type: 0, metaData: {} }; }
  async download(id, previewType, intent, context) {
    const response = await this.runtime.fetch(
      this.runtime.options.base + '/files/' + encodeURIComponent(id) + '?size=' + previewType, { method: 'GET' });
    if (!response.ok) throw new ConnectorHttpError(response.status, 'download failed: ' + response.status);
    return response.arrayBuffer;
  }
  getConfigurationOptions() { return [{ name: 'base', displayName: 'API base', type: 'text' }]; }
  getCapabilities() { return { query: true, detail: true, filtering: false, metadata: false }; }
}
`;

type Route = 'run routes' | 'proxy route';
type Phase = { downloads: number; seconds: number; downloadTimes: number[]; queryTimes: number[] };

/** The loopback image API: a listing of 15 assets, and each asset's bytes. */
const startImageApi = async () => {
  const api = await listen((req, res) => {
    if (req.url?.startsWith('/assets')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          items: Array.from({ length: PAGE }, (_, i) => ({ id: `asset-${i}`, name: `Asset ${i}.jpg` })),
          next: null,
        }),
      );
    } else if (req.url?.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': IMAGE.length });
      res.end(IMAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  // Node's default keep-alive (5 s), as a real API keeps it.
  api.server.keepAliveTimeout = 5_000;
  return api;
};

/** Runs `tasks` with at most `limit` in flight. */
const inFlight = async (tasks: (() => Promise<void>)[], limit: number) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
};

const benchBackend = async (backend: TestBackend): Promise<Figure[]> => {
  const label = backend.name === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
  console.info(`\n${label}`);
  const api = await startImageApi();
  const server = await startRuntimeBenchServer(backend, [{ name: TENANT, users: Math.max(...EDITORS) }]);
  try {
    const id = await server.publish(TENANT, {
      name: 'Studio bench',
      type: 'media',
      script: connector,
      options: { base: api.url },
    });
    const base = server.connectorUrl(TENANT, id);
    const tokens = await Promise.all(
      Array.from({ length: Math.max(...EDITORS) }, (_, n) => server.mint(userOf(TENANT, n))),
    );
    const outcomes: Record<Route, Outcomes> = { 'run routes': new Outcomes(), 'proxy route': new Outcomes() };

    /** One answer, timed to its last byte; a download counts only when it brought the image whole. */
    const timed = async (
      route: Route,
      times: number[],
      call: () => Promise<{ status: number; bytes: ArrayBuffer }>,
    ) => {
      const begin = performance.now();
      const { status, bytes } = await call();
      const outcome = outcomeOf(status, bytes);
      outcomes[route].add(outcome);
      if (outcome === '200') times.push(performance.now() - begin);
      return outcome === '200' ? bytes : undefined;
    };

    /** One editor's page: the listing, then its images, `PER_EDITOR` at a time. */
    const browse = async (route: Route, token: string, phase: Phase) => {
      const proxied = (url: string) =>
        fetch(`${base}/proxy`, {
          headers: {
            authorization: `Bearer ${token}`,
            'x-grafx-proxy-external-url': url,
            'x-grafx-proxy-external-authentication-source': 'browser',
          },
        }).then(async (reply) => ({ status: reply.status, bytes: await reply.arrayBuffer() }));
      const listing = await timed(route, phase.queryTimes, () =>
        route === 'run routes'
          ? postJson(`${base}/media/query`, token, { usage: 'browser', query: { pageSize: PAGE } })
          : proxied(`${api.url}/assets?size=${PAGE}`),
      );
      if (!listing) return;
      const body = JSON.parse(new TextDecoder().decode(listing)) as {
        data?: { id: string }[];
        items?: { id: string }[];
      };
      const ids = (body.data ?? body.items ?? []).map((item) => item.id);
      await inFlight(
        ids.map((asset) => async () => {
          const bytes = await timed(route, phase.downloadTimes, () =>
            route === 'run routes'
              ? postJson(`${base}/media/download`, token, {
                  usage: 'browser',
                  id: asset,
                  previewType: 'mediumres',
                  intent: 'web',
                })
              : proxied(`${api.url}/files/${asset}?size=mediumres`),
          );
          if (bytes?.byteLength === IMAGE.length) phase.downloads++;
        }),
        PER_EDITOR,
      );
    };

    /** `editors` editors browsing page after page for `seconds`; each finishes the page it is on. */
    const phase = async (route: Route, editors: number, seconds: number): Promise<Phase> => {
      const result: Phase = { downloads: 0, seconds: 0, downloadTimes: [], queryTimes: [] };
      const begin = performance.now();
      const until = begin + seconds * 1000;
      await Promise.all(
        tokens.slice(0, editors).map(async (token) => {
          while (performance.now() < until) await browse(route, token, result);
        }),
      );
      result.seconds = (performance.now() - begin) / 1000;
      return result;
    };

    const figures: Figure[] = [];
    for (const editors of EDITORS) {
      // Warm both paths (sessions, sandboxes, connection pools, token caches, and the JIT: the run routes' code is
      // still being optimized well after their first second, a fifth more CPU per download) before anything counts.
      await phase('run routes', editors, WARM_SECONDS);
      await phase('proxy route', editors, WARM_SECONDS);
      for (const outcome of Object.values(outcomes)) outcome.reset();
      const totals: Record<Route, Phase> = {
        'run routes': { downloads: 0, seconds: 0, downloadTimes: [], queryTimes: [] },
        'proxy route': { downloads: 0, seconds: 0, downloadTimes: [], queryTimes: [] },
      };
      for (let r = 0; r < rounds; r++) {
        for (const route of ['run routes', 'proxy route'] as const) {
          const one = await phase(route, editors, duration);
          const total = totals[route];
          total.downloads += one.downloads;
          total.seconds += one.seconds;
          total.downloadTimes.push(...one.downloadTimes);
          total.queryTimes.push(...one.queryTimes);
        }
      }
      const run = totals['run routes'];
      const proxy = totals['proxy route'];
      const perSecond = (p: Phase) => p.downloads / p.seconds;
      const p99 = (p: Phase) => percentile(p.downloadTimes, 99);
      console.info(
        `  ${editors} editors: run routes ${perSecond(run).toFixed(0)} downloads/s p99 ${p99(run).toFixed(1)} ms; proxy route ${perSecond(proxy).toFixed(0)} downloads/s p99 ${p99(proxy).toFixed(1)} ms; not 200: run ${outcomes['run routes'].failures}, proxy ${outcomes['proxy route'].failures}`,
      );
      const name = `${label}: ${editors} editors, each a page of ${PAGE} mediumres images`;
      const failures = outcomes['run routes'].failures;
      figures.push(
        {
          label: `${name}, media/download through the run routes`,
          value: Math.round(perSecond(run)),
          unit: 'downloads/s',
          anchor: { label: 'the same through the proxy route', value: Math.round(perSecond(proxy)) },
          target: '≥ 0.5× the proxy route',
          met: perSecond(run) >= 0.5 * perSecond(proxy),
        },
        {
          label: `${name}, media/download p99`,
          value: round(p99(run)),
          unit: 'ms',
          anchor: { label: 'proxy route p99', value: round(p99(proxy)) },
          target: '≤ 3× the proxy route',
          met: p99(run) <= 3 * p99(proxy),
        },
        {
          label: `${name}, media/query p50`,
          value: round(percentile(run.queryTimes, 50)),
          unit: 'ms',
          anchor: {
            label: 'the listing through the proxy route, p50',
            value: round(percentile(proxy.queryTimes, 50)),
          },
        },
        {
          label: `${name}, run-route answers other than 200${outcomes['run routes'].describe()}${
            outcomes['proxy route'].failures > 0
              ? `; through the proxy route${outcomes['proxy route'].describe()}`
              : ''
          }`,
          value: failures,
          unit: 'answers',
          target: '0',
          met: failures === 0,
        },
      );
    }
    return figures;
  } finally {
    await server.stop();
    await api.close();
  }
};

// The server runs dist/: bundled from the current sources first, so the bench never measures an old build.
buildPrograms(new URL('../', import.meta.url))();
const loadAtStart = loadavg()[0]!;
const figures: Figure[] = [];
for (const backend of await testBackends()) figures.push(...(await benchBackend(backend)));
await writeRuntimeResults('runtime-studio', figures, [
  `Editors ${EDITORS.join(' and ')}, ${PER_EDITOR} downloads each at a time; after ${WARM_SECONDS} s of each route unmeasured, ${rounds} rounds of ${duration} s per route, interleaved; throughput and p99 over all rounds. ${loadNote(loadAtStart)}`,
]);
