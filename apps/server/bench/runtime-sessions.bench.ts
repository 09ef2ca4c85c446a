/**
 * `tsx bench/runtime-sessions.bench.ts` (part of `npm run bench -w @platform/server`): a thousand distinct callers of
 * one connector, each holding a warm session, on the user's path. The built server in a process of its own, on the
 * embedded PGlite and (with TEST_DATABASE_URL) PostgreSQL; a data file of one subscription with 1,000 members, each
 * calling with a token of its own from the server's development issuer; `media/query` (one fetch to a loopback API)
 * through HTTP. In one run:
 * - one caller's warm calls, one at a time: the anchor (p50), and the server's peak RSS so far;
 * - each of the 1,000 callers' first call (16 at a time: every session started);
 * - the 1,000 callers' warm calls in turn, one at a time, each caller again and again while all hold their sessions:
 *   p50 (target: the one caller's, within a shared machine's noise of 20%), and the server's peak RSS (< 1.5 GiB);
 *   between every hundred of them, twenty of the one caller's calls (timed at the same moments, with every session
 *   held: when the first anchor and this one differ, the machine's load moved or every call pays for the sessions).
 * BENCH_DURATION (s, default 5) sets each timed phase; BENCH_CALLERS (default 1000) the callers.
 * Writes bench/results/runtime-sessions.json.
 */
import { loadavg } from 'node:os';
import { type TestBackend, testBackends } from '@platform/store/testing';
import { buildPrograms } from '../../../tools/build-for-tests.ts';
import { listen } from '../test/support/loopback-servers.ts';
import type { Figure } from './figure.ts';
import {
  loadNote,
  MiB,
  Outcomes,
  outcomeOf,
  postJson,
  residentMemory,
  round,
  startRuntimeBenchServer,
  userOf,
  writeRuntimeResults,
} from './support/runtime-tenants.ts';
import { percentile } from './support.ts';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const callers = Number(process.env.BENCH_CALLERS ?? 1000);
const TENANT = 'acme';
const PRIMING_CONCURRENCY = 16;
/** Warm calls of this many callers in turn, then a fifth as many of the one caller's. */
const CHUNK = 100;
const PEAK_RSS_TARGET = 1.5 * 1024 * MiB;
/** "Unchanged" on a shared machine: within this factor of the one caller's p50. */
const UNCHANGED = 1.2;

/**
 * A media connector of 30 KB, the size of the largest of the platform's public connectors (Aprimo's): a table of
 * labels at module level, and in `this` what its last query saw, as real connectors keep it for their downloads.
 */
const connector = (() => {
  const table = JSON.stringify(
    Array.from({ length: 600 }, (_, i) => ({ key: `k${i}`, label: `label ${i} ` })),
  );
  return `const LABELS = ${table};
export default class SessionBench {
  constructor(runtime) { this.runtime = runtime; this.seen = {}; }
  async query(options, context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/items?page=' + (options.pageToken || 0), { method: 'GET' });
    const body = JSON.parse(response.text);
    for (const id of body.items) this.seen[id] = LABELS[id % LABELS.length].label;
    return { pageSize: options.pageSize, data: body.items.map((id) => ({ id: String(id), name: this.seen[id], relativePath: '/', type: 0, metaData: {} })), links: { nextPage: '' } };
  }
  async detail(id) { return { id, name: this.seen[id] || id, relativePath: '/', type: 0, metaData: {} }; }
  async download(id) { throw new ConnectorHttpError(404, 'no file ' + id); }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { query: true, detail: true, filtering: false }; }
}
`;
})();

const benchBackend = async (backend: TestBackend): Promise<Figure[]> => {
  const label = backend.name === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
  console.info(`\n${label}`);
  const upstream = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [1, 2, 3, 4, 5] }));
  });
  // Node's default keep-alive (5 s), as a real API keeps it.
  upstream.server.keepAliveTimeout = 5_000;
  // Room for every caller's session, whatever the default for this machine: the figure is that of all of them held.
  const server = await startRuntimeBenchServer(backend, [{ name: TENANT, users: callers }], {
    RUNTIME_MAX_SESSIONS: String(callers),
  });
  try {
    const id = await server.publish(TENANT, {
      name: 'Sessions bench',
      type: 'media',
      script: connector,
      options: { base: upstream.url },
    });
    const queryUrl = `${server.connectorUrl(TENANT, id)}/media/query`;
    const tokens = await Promise.all(
      Array.from({ length: callers }, (_, n) => server.mint(userOf(TENANT, n))),
    );
    const query = async (token: string) => {
      const begin = performance.now();
      const { status, bytes } = await postJson(queryUrl, token, { usage: 'browser', query: { pageSize: 5 } });
      return { status, outcome: outcomeOf(status, bytes), ms: performance.now() - begin };
    };

    // One caller, one call at a time: the anchor, on a server holding that one session.
    const one = tokens[0]!;
    for (const until = performance.now() + 1000; performance.now() < until; ) await query(one);
    const oneTimes: number[] = [];
    for (
      const until = performance.now() + duration * 1000;
      performance.now() < until || oneTimes.length < 50;
    ) {
      const { status, ms } = await query(one);
      if (status !== 200) throw new Error(`the one caller's call answered ${status}`);
      oneTimes.push(ms);
    }
    const oneCaller = await residentMemory(server.pid);
    console.info(
      `  one caller: p50 ${percentile(oneTimes, 50).toFixed(2)} ms, peak RSS ${Math.round(oneCaller.peak / MiB)} MiB`,
    );

    // Every caller's first call, a few at a time, so each starts (and holds) a session of its own.
    const firstTimes: number[] = [];
    const outcomes = new Outcomes();
    let next = 0;
    await Promise.all(
      Array.from({ length: PRIMING_CONCURRENCY }, async () => {
        while (next < callers) {
          const { outcome, ms } = await query(tokens[next++]!);
          if (outcome === '200') firstTimes.push(ms);
          else console.info(`  first call answered ${outcome} after ${Math.round(ms)} ms`);
          outcomes.add(outcome);
        }
      }),
    );

    // Warm calls of all callers in turn, one at a time: each caller's session has served it before. Every
    // CHUNK callers, the one caller's calls again, so that both are timed at the same moments of a shared machine
    // (an anchor of the server holding every session; the target's anchor is the one above, before they existed).
    const warmTimes: number[] = [];
    const oneAgainTimes: number[] = [];
    const chunk = Math.min(CHUNK, callers);
    let passes = 0;
    for (
      const until = performance.now() + duration * 1000;
      performance.now() < until || passes < 1;
      passes++
    ) {
      for (const [n, token] of tokens.entries()) {
        const { outcome, ms } = await query(token);
        if (outcome === '200') warmTimes.push(ms);
        else console.info(`  warm call answered ${outcome} after ${Math.round(ms)} ms`);
        outcomes.add(outcome);
        if (n % chunk === chunk - 1) {
          for (let i = 0; i < Math.ceil(chunk / 5); i++) {
            const again = await query(one);
            if (again.outcome !== '200') throw new Error(`the one caller's call answered ${again.outcome}`);
            oneAgainTimes.push(again.ms);
          }
        }
      }
    }
    const many = await residentMemory(server.pid);
    const failures = outcomes.failures;
    const oneP50 = percentile(oneTimes, 50);
    const warmP50 = percentile(warmTimes, 50);
    console.info(
      `  the one caller again among them: p50 ${percentile(oneAgainTimes, 50).toFixed(2)} ms\n  ${callers} callers: first call p50 ${percentile(firstTimes, 50).toFixed(2)} ms, p99 ${percentile(firstTimes, 99).toFixed(0)} ms, warm p50 ${warmP50.toFixed(2)} ms over ${passes} passes, peak RSS ${Math.round(many.peak / MiB)} MiB, ${failures} calls not answered 200`,
    );
    return [
      {
        label: `${label}: warm media/query p50, ${callers} distinct callers in turn, each holding its session`,
        value: round(warmP50),
        unit: 'ms',
        anchor: { label: 'one caller, warm p50', value: round(oneP50) },
        target: `unchanged (≤ ${UNCHANGED}× one caller's)`,
        met: warmP50 <= UNCHANGED * oneP50,
      },
      {
        label: `${label}: warm media/query p50 of the one caller, between the ${callers} callers' calls`,
        value: round(percentile(oneAgainTimes, 50)),
        unit: 'ms',
        anchor: { label: 'one caller alone, warm p50', value: round(oneP50) },
      },
      {
        label: `${label}: server peak RSS with ${callers} callers holding warm sessions`,
        value: Math.round(many.peak / MiB),
        unit: 'MiB',
        anchor: { label: 'peak RSS after the one caller', value: Math.round(oneCaller.peak / MiB) },
        target: '< 1,536 MiB (1.5 GiB)',
        met: many.peak < PEAK_RSS_TARGET,
      },
      {
        label: `${label}: server RSS once the ${callers} callers' warm calls are done`,
        value: Math.round(many.now / MiB),
        unit: 'MiB',
      },
      {
        label: `${label}: first call of each of the ${callers} callers (a session started), p50, ${PRIMING_CONCURRENCY} at a time`,
        value: round(percentile(firstTimes, 50)),
        unit: 'ms',
      },
      {
        label: `${label}: first call of each of the ${callers} callers, p99`,
        value: round(percentile(firstTimes, 99)),
        unit: 'ms',
      },
      {
        label: `${label}: calls of the ${callers} callers answered other than 200${outcomes.describe()}`,
        value: failures,
        unit: 'calls',
        target: '0',
        met: failures === 0,
      },
    ];
  } finally {
    await server.stop();
    await upstream.close();
  }
};

// The server runs dist/: bundled from the current sources first, so the bench never measures an old build.
buildPrograms(new URL('../', import.meta.url))();
const loadAtStart = loadavg()[0]!;
const figures: Figure[] = [];
for (const backend of await testBackends()) figures.push(...(await benchBackend(backend)));
await writeRuntimeResults('runtime-sessions', figures, [
  `${callers} callers, each with a token of its own; timed phases of ${duration} s. ${loadNote(loadAtStart)}`,
]);
