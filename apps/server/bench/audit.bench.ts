/**
 * The audit trail's cost on the user's path (docs/audit.md), on each backend (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL), through HTTP with verified tokens:
 * - an audited write costs ≤ 1.2× the same write without its entry: `PUT .../auth/static` (set-auth) and
 *   `POST .../tags`, one client, mean latency; the anchor is the same server with AUDIT_BENCH_OFF, measured in the
 *   same run, the two interleaved round by round so that the machine's drift falls on both alike;
 * - `GET /api/v1/audit` with filters at 1,000,000 entries answers p95 ≤ 50 ms (the entries bulk-written into the
 *   audited server's database, spread over two subscriptions, five environments, ten actors and every action).
 * Writes bench/results/audit.json. Options: --writes=N per round (100), --rounds=N (3), --entries=N (1,000,000),
 * --reads=N per filter (200).
 */

import { auditActions } from '@platform/core';
import { importDataFile, queryRows } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { sql } from 'drizzle-orm';
import { fixture, SUB_A, USERS } from '../test/support/fixture.ts';
import { type Figure, flag, percentile, startBenchPlatform, writeResults } from './support.ts';

const WRITES = flag('writes') ?? 100;
const ROUNDS = flag('rounds') ?? 3;
const ENTRIES = flag('entries') ?? 1_000_000;
const READS = flag('reads') ?? 200;
const RW = ['platform:read', 'platform:write'];
const ACTIONS = auditActions;

type Bench = Awaited<ReturnType<typeof startBenchPlatform>>;

/** Milliseconds per request of `count` requests sent one after another. */
const timed = async (count: number, send: (i: number) => Promise<Response>): Promise<number[]> => {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const begin = performance.now();
    const response = await send(i);
    await response.arrayBuffer();
    if (response.status >= 300) throw new Error(`a bench request answered ${response.status}`);
    times.push(performance.now() - begin);
  }
  return times;
};

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** A server of the bench with the fixture and a connector to set the authorization of. */
const prepared = async (bench: Bench) => {
  await importDataFile(bench.database, fixture(new Date()));
  const token = await bench.token(USERS.owner, RW);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const base = `${bench.url}/grafx/api/v1/environment/acme-prod`;
  const connector = (await (
    await fetch(`${base}/connectors`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Bench',
        version: '1.0.0',
        type: 'media',
        script: 'export default class Connector {}',
        allowedDomains: ['api.acme.example'],
      }),
    })
  ).json()) as { id: string };
  let tags = 0;
  return {
    setAuth: (i: number) =>
      fetch(`${base}/connectors/${connector.id}/auth/static`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ usage: 'server', key: 'X-Api-Key', value: `sk-bench-${i}` }),
      }),
    createTag: () =>
      fetch(`${base}/tags`, { method: 'POST', headers, body: JSON.stringify({ name: `bench-${tags++}` }) }),
  };
};

/** Bulk-writes `count` entries straight into the trail (the trigger allows inserts), then lets the planner see them. */
const fillTrail = async (bench: Bench, count: number) => {
  const actions = `array[${ACTIONS.map((a) => `'${a}'`).join(',')}]`;
  // Entries name their subscription by guid.
  const found = await queryRows<{ id: number; guid: string }>(
    bench.database.db,
    sql`select id, guid from subscriptions where id in (501, 502)`,
  );
  const guidOf = (id: number) => found.find((row) => Number(row.id) === id)?.guid;
  const per = 100_000;
  for (let start = 0; start < count; start += per) {
    const n = Math.min(per, count - start);
    await bench.database.db.execute(
      sql.raw(`insert into audit_entries (id, at, actor_issuer, actor_subject, action, outcome, target_type, target_id,
                 environment, subscription_guid, source_address, trace_id, changes)
               select gen_random_uuid(), now() - (g * interval '30 seconds'), 'https://issuer.bench',
                      'auth0|user-' || (g % 10), (${actions})[1 + g % ${ACTIONS.length}], 'success', 'tag',
                      gen_random_uuid()::text, (array['acme-prod','acme-sandbox','acme-dev','acme-prod-us','globex-prod'])[1 + g % 5],
                      case when g % 5 = 4 then '${guidOf(502)}'::uuid else '${guidOf(501)}'::uuid end, '203.0.113.' || (g % 250),
                      md5(g::text), '{"name":{"to":"bench"}}'::jsonb
               from generate_series(${start + 1}, ${start + n}) g`),
    );
  }
  await bench.database.db.execute(sql`analyze audit_entries`);
};

const figures: Figure[] = [];
for (const backend of await testBackends()) {
  const audited = await startBenchPlatform(backend);
  const anchor = await startBenchPlatform(backend, { AUDIT_BENCH_OFF: 'true' });
  try {
    const [on, off] = [await prepared(audited), await prepared(anchor)];
    // Warm-up: prepared statements, verified tokens, JIT.
    for (const side of [on, off]) {
      await timed(20, side.setAuth);
      await timed(20, side.createTag);
    }
    const samples = {
      setAuth: { on: [] as number[], off: [] as number[] },
      tag: { on: [] as number[], off: [] as number[] },
    };
    for (let r = 0; r < ROUNDS; r++) {
      samples.setAuth.off.push(...(await timed(WRITES, off.setAuth)));
      samples.setAuth.on.push(...(await timed(WRITES, on.setAuth)));
      samples.tag.off.push(...(await timed(WRITES, off.createTag)));
      samples.tag.on.push(...(await timed(WRITES, on.createTag)));
    }
    for (const [what, label] of [
      ['setAuth', 'PUT .../connectors/{id}/auth/static (set-auth)'],
      ['tag', 'POST .../tags (tag create)'],
    ] as const) {
      const value = round2(mean(samples[what].on));
      const without = round2(mean(samples[what].off));
      const ratio = round2(value / without);
      console.info(`${backend.name}: ${label} ${value} ms audited, ${without} ms without (${ratio}×)`);
      figures.push({
        label: `${label}, audited, mean of ${ROUNDS * WRITES} sequential requests (${backend.name})`,
        value,
        unit: 'ms',
        anchor: {
          label: 'the same write without its audit entry (AUDIT_BENCH_OFF), same run',
          value: without,
        },
        ratio,
        target: '≤ 1.2× without',
        met: ratio <= 1.2,
      });
    }

    const begin = performance.now();
    await fillTrail(audited, ENTRIES);
    console.info(
      `${backend.name}: ${ENTRIES} entries written in ${Math.round(performance.now() - begin)} ms`,
    );
    const owner = `Bearer ${await audited.token(USERS.owner, RW)}`;
    const operator = `Bearer ${await audited.token('auth0|operator', [...RW, 'platform:admin'])}`;
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const reads: [string, string, string][] = [
      ['operator, newest page', operator, ''],
      ['owner, subscriptionId + action', owner, `subscriptionId=${SUB_A}&action=tag.create`],
      ['owner, environment + actor', owner, 'environment=acme-sandbox&actor=auth0%7Cuser-1'],
      ['operator, action + time range', operator, `action=connector.auth.set&from=${from}`],
      ['owner, third page', owner, `subscriptionId=${SUB_A}`],
    ];
    for (const [label, authorization, query] of reads) {
      let path = `${audited.url}/api/v1/audit?limit=50${query ? `&${query}` : ''}`;
      if (label.endsWith('third page')) {
        for (let page = 0; page < 2; page++) {
          const body = (await (await fetch(path, { headers: { authorization } })).json()) as {
            links: { nextPage: string };
          };
          path = body.links.nextPage;
        }
      }
      await timed(10, () => fetch(path, { headers: { authorization } }));
      const times = await timed(READS, () => fetch(path, { headers: { authorization } }));
      const p95 = round2(percentile(times, 95));
      console.info(`${backend.name}: GET /api/v1/audit (${label}) p95 ${p95} ms`);
      figures.push({
        label: `GET /api/v1/audit at ${ENTRIES.toLocaleString('en')} entries, ${label}, p95 of ${READS} (${backend.name})`,
        value: p95,
        unit: 'ms',
        target: '≤ 50 ms',
        met: p95 <= 50,
      });
    }
  } finally {
    await anchor.close();
    await audited.close();
  }
}
await writeResults('audit', figures);
