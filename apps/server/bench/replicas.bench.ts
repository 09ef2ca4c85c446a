/**
 * `npm run bench -w @platform/server` (part of `npm run bench`): replicas and a noisy tenant, through HTTP with
 * verified tokens against built `platform-server` processes: three on PostgreSQL (when TEST_DATABASE_URL or a container
 * gives one), one on the embedded PGlite. In one run per backend, each figure beside its anchor:
 * - another environment's first proxied call (a token fetch each), p99, while one environment's token endpoints
 *   hang, against the same measured on a quiet platform: target Δ ≤ 50 ms;
 * - token requests made by 300 concurrent calls against an endpoint that answers 500 after 2 s: target ≤ 5;
 * - one user's accepted requests per second over the replicas against RATE_LIMIT_PER_SECOND: target ±20 %.
 * Writes bench/results/replicas.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TestBackend, testBackends } from '@platform/store/testing';
import { USERS } from '../test/support/fixture.ts';
import {
  acceptedPerSecond,
  callFailingEndpoint,
  percentile,
  type ReplicaWorld,
  startReplicaWorld,
} from '../test/support/replica-world.ts';
import type { Figure } from './figure.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const FIRST_CALLS = Number(process.env.REPLICAS_BENCH_FIRST_CALLS ?? 40);
const RATE_LIMIT = 20;

const round = (value: number) => Math.round(value * 10) / 10;

/** First proxied call of `FIRST_CALLS` new connectors in acme-sandbox, one at a time, over the replicas in turn. */
const firstCallsP99 = async (world: ReplicaWorld): Promise<number> => {
  const healthy = await world.tokenServer();
  const ids: string[] = [];
  for (let i = 0; i < FIRST_CALLS; i++)
    ids.push(await world.oauthConnector('acme-sandbox', `${healthy.url}/token`));
  const times: number[] = [];
  for (const [i, id] of ids.entries()) {
    const call = await world.proxy(world.replicas[i % world.replicas.length]!, 'acme-sandbox', id);
    if (call.status !== 200) throw new Error(`first call: ${call.status} ${call.text}`);
    times.push(call.ms);
  }
  return percentile(times, 99);
};

/**
 * Keeps `inFlight` callers per replica calling connectors whose token endpoint hangs, until `stop()`: each waits for
 * its answer (a hung fetch until TOKEN_TIMEOUT_SECONDS, or the remembered failure) and a second before the next, so
 * what is measured is the hung endpoint, not a flood of requests competing for the CPU.
 */
const hangTenant = async (world: ReplicaWorld, inFlight = 4) => {
  const hung = await world.tokenServer();
  hung.mode = 'hang';
  const ids = await Promise.all(
    Array.from({ length: 6 }, () => world.oauthConnector('acme-prod', `${hung.url}/token`)),
  );
  let stopped = false;
  let turn = 0;
  const loops = world.replicas.flatMap((replica) =>
    Array.from({ length: inFlight }, async () => {
      while (!stopped) {
        await world.proxy(replica, 'acme-prod', ids[turn++ % ids.length]!);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }),
  );
  // Every hung connector has a fetch under way before measuring.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
};

const failingTokenRequests = async (world: ReplicaWorld): Promise<number> => {
  const { calls, tokenRequests } = await callFailingEndpoint(world);
  // 504 when a loaded machine takes the 2 s past TOKEN_TIMEOUT_SECONDS: a failure all the same.
  const other = calls.find((call) => call.status !== 502 && call.status !== 504);
  if (other) throw new Error(`a call against the failing endpoint answered ${other.status}: ${other.text}`);
  return tokenRequests;
};

const measure = async (backend: TestBackend): Promise<Figure[]> => {
  const on = `${backend.name === 'postgres' ? 'PostgreSQL, 3 replicas' : 'PGlite, 1 process'}`;
  const tokenWorld = await startReplicaWorld(backend, {
    replicas: 3,
    env: { TOKEN_TIMEOUT_SECONDS: '5', RATE_LIMIT_PER_SECOND: '0' },
  });
  const figures: Figure[] = [];
  try {
    const quiet = await firstCallsP99(tokenWorld);
    const hang = await hangTenant(tokenWorld);
    const noisy = await firstCallsP99(tokenWorld);
    await hang.stop();
    const quietAnchor = { label: `first proxied call p99, quiet platform (${on})`, value: round(quiet) };
    figures.push({ ...quietAnchor, unit: 'ms' });
    figures.push({
      label: `first proxied call p99, another environment's token endpoints hung (${on})`,
      value: round(noisy),
      unit: 'ms',
      anchor: quietAnchor,
      target: 'Δ ≤ 50 ms',
      met: noisy - quiet <= 50,
    });
    const requests = await failingTokenRequests(tokenWorld);
    figures.push({
      label: `token requests for 300 concurrent calls, endpoint answering 500 after 2 s (${on})`,
      value: requests,
      unit: 'requests',
      anchor: { label: 'calls', value: 300 },
      target: '≤ 5',
      met: requests <= 5,
    });
  } finally {
    await tokenWorld.close();
  }
  const rateWorld = await startReplicaWorld(backend, {
    replicas: 3,
    env: { RATE_LIMIT_PER_SECOND: String(RATE_LIMIT) },
  });
  try {
    // Every replica has seen the others' heartbeats (every 2 s).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const token = await rateWorld.issuer.sign({ sub: USERS.owner, roles: ['platform:read'] });
    const { perSecond } = await acceptedPerSecond(rateWorld, token, 5);
    figures.push({
      label: `one user's accepted requests per second, spread over the replicas (${on})`,
      value: round(perSecond),
      unit: 'req/s',
      anchor: { label: 'RATE_LIMIT_PER_SECOND', value: RATE_LIMIT },
      target: '±20 %',
      met: Math.abs(perSecond - RATE_LIMIT) <= RATE_LIMIT * 0.2,
    });
  } finally {
    await rateWorld.close();
  }
  return figures;
};

// The machine may be shared: its load at the start of the run stands beside the figures.
const load = Math.round((loadavg()[0] ?? 0) * 100) / 100;
const figures: Figure[] = [
  { label: `load average (1 min) at the start of this run, ${cpus().length} cores`, value: load, unit: '' },
];
for (const backend of await testBackends()) figures.push(...(await measure(backend)));
const results = join(root, 'bench/results');
await mkdir(results, { recursive: true });
await writeFile(
  join(results, 'replicas.json'),
  `${JSON.stringify({ name: 'replicas', at: new Date().toISOString(), figures }, null, 2)}\n`,
);
for (const figure of figures) console.info(`${figure.label}: ${figure.value} ${figure.unit}`);
