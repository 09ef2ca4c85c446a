/**
 * `tsx bench/runtime-fairness.bench.ts` (part of `npm run bench -w @platform/server`): whether one tenant can slow or
 * deny another's connector runs, on the user's path. The built server in a process of its own, on the embedded
 * PGlite and (with TEST_DATABASE_URL) PostgreSQL; two subscriptions, each with its own users (tokens of the server's
 * development issuer) and its own connectors. Tenant A's probe: a trivial `data/model` (no fetch) sent every 100 ms
 * whatever the earlier ones do, in turn by A's users, each timed to its answer. In one run:
 * - A alone: the anchor (p99);
 * - A while tenant B keeps 100 calls of a connector that sleeps 2 s in flight (B's users in turn; an answer other
 *   than 200 sends that B client back after 200 ms), as two tRPC batches of 50 would;
 * - A while B keeps 8 calls of a connector that loops until the time limit (RUNTIME_TIMEOUT_SECONDS=10 here) running;
 * - A while another member of A's own subscription (a caller of its own) keeps 8 such calls running: more than the
 *   threads the subscription may keep held, so each of A's probes ends one of that caller's runs early.
 * Targets: A's calls start within a second (A's p99 under the load ≤ A alone + 1,000 ms) and none of A's calls is
 * answered other than 200 (503 RUNTIME_BUSY above all).
 * BENCH_DURATION (s, default 10) sets each probe. Writes bench/results/runtime-fairness.json.
 */
import { loadavg } from 'node:os';
import { type TestBackend, testBackends } from '@platform/store/testing';
import { buildPrograms } from '../../../tools/build-for-tests.ts';
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

const duration = Number(process.env.BENCH_DURATION ?? 10);
const TIMEOUT_SECONDS = 10;
const A = 'alpha';
const B = 'beta';
const A_USERS = 4;
/** A's member who loops in the last phase: a user of A's beyond those who probe. */
const A_COLLEAGUE = A_USERS;
const B_USERS = 20;
const PROBE_INTERVAL_MS = 100;
const SLEEPING_CALLS = 100;
const SLEEP_MS = 2_000;
const LOOPING_CALLS = 8;
/** How long a B client waits after an answer other than 200 (503 RUNTIME_BUSY) before it calls again. */
const BACK_OFF_MS = 200;

const trivial =
  'export default class Trivial { async getModel() { return { properties: [{ name: "id", type: "singleLine" }] }; } async getPage() { return { data: [] }; } getConfigurationOptions() { return []; } getCapabilities() { return { filtering: false, sorting: false, model: true }; } }';
const sleeper = `export default class Sleeper { async getModel() { await sleep(${SLEEP_MS}); return { properties: [] }; } async getPage() { return { data: [] }; } getConfigurationOptions() { return []; } getCapabilities() { return { filtering: false, sorting: false, model: true }; } }`;
const looper =
  'export default class Looper { async getModel() { for (;;) {} } async getPage() { return { data: [] }; } getConfigurationOptions() { return []; } getCapabilities() { return { filtering: false, sorting: false, model: true }; } }';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Probe = { times: number[]; outcomes: Outcomes };

const benchBackend = async (backend: TestBackend): Promise<Figure[]> => {
  const label = backend.name === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
  console.info(`\n${label}`);
  const server = await startRuntimeBenchServer(
    backend,
    [
      { name: A, users: A_USERS + 1 },
      { name: B, users: B_USERS },
    ],
    { RUNTIME_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) },
  );
  try {
    const publish = (tenant: string, name: string, script: string) =>
      server.publish(tenant, { name, type: 'data', script });
    const aModel = `${server.connectorUrl(A, await publish(A, 'Trivial', trivial))}/data/model`;
    const sleepModel = `${server.connectorUrl(B, await publish(B, 'Sleeper', sleeper))}/data/model`;
    const loopModel = `${server.connectorUrl(B, await publish(B, 'Looper', looper))}/data/model`;
    const aLoopModel = `${server.connectorUrl(A, await publish(A, 'Looper', looper))}/data/model`;
    const aTokens = await Promise.all(Array.from({ length: A_USERS }, (_, n) => server.mint(userOf(A, n))));
    const colleagueToken = await server.mint(userOf(A, A_COLLEAGUE));
    const bTokens = await Promise.all(Array.from({ length: B_USERS }, (_, n) => server.mint(userOf(B, n))));
    const call = async (url: string, token: string) => {
      const begin = performance.now();
      const { status, bytes } = await postJson(url, token, { usage: 'browser' });
      return { outcome: outcomeOf(status, bytes), ms: performance.now() - begin };
    };

    /** A's calls, one every PROBE_INTERVAL_MS for `seconds` (open loop: a slow answer delays no later call). */
    const probe = async (seconds: number): Promise<Probe> => {
      const result: Probe = { times: [], outcomes: new Outcomes() };
      const calls: Promise<void>[] = [];
      for (let i = 0; i < (seconds * 1000) / PROBE_INTERVAL_MS; i++) {
        calls.push(
          call(aModel, aTokens[i % A_USERS]!).then(({ outcome, ms }) => {
            result.outcomes.add(outcome);
            if (outcome === '200') result.times.push(ms);
          }),
        );
        await pause(PROBE_INTERVAL_MS);
      }
      await Promise.all(calls);
      return result;
    };

    /**
     * `clients` calling `url` with `tokens` in turn, each again as soon as answered (after BACK_OFF_MS when refused),
     * until stopped.
     */
    const keepCalling = (url: string, tokens: string[], clients: number) => {
      let stopped = false;
      const outcomes = new Outcomes();
      let answered = 0;
      let next = 0;
      const running = Promise.all(
        Array.from({ length: clients }, async () => {
          while (!stopped) {
            const { outcome } = await call(url, tokens[next++ % tokens.length]!);
            outcomes.add(outcome);
            if (outcome === '200') answered++;
            else await pause(BACK_OFF_MS);
          }
        }),
      );
      return {
        /** Stops calling and waits for B's calls in flight (each ends by its time limit). */
        stop: async () => {
          stopped = true;
          await running;
          return { answered, outcomes };
        },
      };
    };

    // Warm A's connector for each of its users, and B's sleeper once; the looper's first call is B's own cost.
    for (const token of aTokens) for (let i = 0; i < 5; i++) await call(aModel, token);
    await call(sleepModel, bTokens[0]!);

    const alone = await probe(duration);
    const sleeping = keepCalling(sleepModel, bTokens, SLEEPING_CALLS);
    await pause(1_000);
    const underSleepers = await probe(duration);
    const sleepers = await sleeping.stop();
    const looping = keepCalling(loopModel, bTokens, LOOPING_CALLS);
    await pause(1_000);
    const underLoops = await probe(duration);
    const loops = await looping.stop();
    const colleagueLooping = keepCalling(aLoopModel, [colleagueToken], LOOPING_CALLS);
    await pause(1_000);
    const underColleague = await probe(duration);
    const colleagueLoops = await colleagueLooping.stop();

    const aloneP99 = percentile(alone.times, 99);
    const figures: Figure[] = [
      {
        label: `${label}: tenant A's trivial data/model alone, p99 (of the ${alone.times.length} answered 200)${alone.outcomes.describe()}`,
        value: round(aloneP99),
        unit: 'ms',
      },
    ];
    const under = (who: string, what: string, probed: Probe, b: { answered: number; outcomes: Outcomes }) => {
      const p99 = percentile(probed.times, 99);
      console.info(
        `  A while ${who} ${what}: p99 ${p99.toFixed(1)} ms (alone ${aloneP99.toFixed(1)} ms), A not 200: ${probed.outcomes.failures}${probed.outcomes.describe()}; ${who}: ${b.answered} answered 200${b.outcomes.describe()}`,
      );
      figures.push(
        {
          label: `${label}: tenant A's trivial data/model p99 while ${who} ${what} (of the ${probed.times.length} answered 200)`,
          value: round(p99),
          unit: 'ms',
          anchor: { label: 'A alone, p99', value: round(aloneP99) },
          target: '≤ A alone + 1,000 ms',
          met: probed.times.length > 0 && p99 - aloneP99 <= 1000,
        },
        {
          label: `${label}: tenant A's calls answered other than 200 while ${who} ${what}${probed.outcomes.describe()}`,
          value: probed.outcomes.failures,
          unit: `of ${probed.times.length + probed.outcomes.failures} calls`,
          target: '0 (no 503)',
          met: probed.outcomes.failures === 0,
        },
        {
          label: `${label}: ${who}'s own calls meanwhile, answered 200${b.outcomes.describe()}`,
          value: b.answered,
          unit: 'calls',
        },
      );
    };
    const tenantB = 'tenant B';
    under(
      tenantB,
      `keeps ${SLEEPING_CALLS} calls sleeping ${SLEEP_MS / 1000} s in flight`,
      underSleepers,
      sleepers,
    );
    under(
      tenantB,
      `keeps ${LOOPING_CALLS} calls looping to the ${TIMEOUT_SECONDS} s limit`,
      underLoops,
      loops,
    );
    under(
      "another member of A's subscription",
      `keeps ${LOOPING_CALLS} calls looping to the ${TIMEOUT_SECONDS} s limit`,
      underColleague,
      colleagueLoops,
    );
    return figures;
  } finally {
    await server.stop();
  }
};

// The server runs dist/: bundled from the current sources first, so the bench never measures an old build.
buildPrograms(new URL('../', import.meta.url))();
const loadAtStart = loadavg()[0]!;
const figures: Figure[] = [];
for (const backend of await testBackends()) figures.push(...(await benchBackend(backend)));
await writeRuntimeResults('runtime-fairness', figures, [
  `A probes every ${PROBE_INTERVAL_MS} ms for ${duration} s per phase; RUNTIME_TIMEOUT_SECONDS=${TIMEOUT_SECONDS}. ${loadNote(loadAtStart)}`,
]);
