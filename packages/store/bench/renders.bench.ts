/**
 * `npm run bench -w @platform/store`: render ingestion rate, and the subscription-renders query (50
 * environments, groupBy=year, top=5) as the service runs it (whole months from `render_monthly`, edge days from
 * `render_daily`) at 1 M and 10 M events, beside the previous daily-only read and the same answer computed from a
 * raw events table; a custom range with partial edge months is checked against the raw answer too. PostgreSQL when TEST_DATABASE_URL is set, else PGlite (at 100 k and
 * 1 M events unless `--full`).
 * Prints a table and writes bench/results/store.json at the repository root ({ name, figures }).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { importDataFile } from '../src/import/import-data-file.ts';
import { queryRows } from '../src/query-rows.ts';
import { ingestRenderEvents, type RenderEventInput } from '../src/renders/ingest-render-events.ts';
import { testBackends } from '../src/test-support.ts';
import { rendersQuery, type Source, subscriptionRenders } from './subscription-renders.ts';

const ENVIRONMENTS = 50;
const SUBSCRIPTION_ID = 1;
const INGEST_BATCH = 10_000;
const KINDS = ['Pdf', 'Image', 'Studio-Gif', 'Mp4'];
const DAY = 86_400_000;

const args = process.argv.slice(2);
const flag = (name: string) => {
  const value = args.find((a) => a.startsWith(`--${name}=`));
  return value ? Number(value.split('=')[1]) : undefined;
};

const backends = await testBackends();
const backend =
  backends.find((b) => b.name === 'postgres' && b.source === 'TEST_DATABASE_URL') ?? backends[0]!;
const onPostgres = backend.name === 'postgres';
// PGlite runs in one WebAssembly thread: 10 M raw events take minutes there, so it runs a tenth unless `--full`.
const scales = onPostgres || args.includes('--full') ? [1_000_000, 10_000_000] : [100_000, 1_000_000];
const ingestEvents = flag('ingest') ?? (onPostgres ? 1_000_000 : 300_000);
const today = new Date();
const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());

const database = await backend.fresh();
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

try {
  // One subscription with 50 environments of all three types.
  const types = ['Production', 'Sandbox', 'Development'] as const;
  const environments = Array.from({ length: ENVIRONMENTS }, (_, i) => ({
    id: i + 1,
    guid: randomUUID(),
    name: `Environment ${String(i + 1).padStart(2, '0')}`,
    type: types[i % 3]!,
  }));
  await importDataFile(database, {
    subscriptions: [
      {
        id: SUBSCRIPTION_ID,
        guid: randomUUID(),
        name: 'bench',
        clientId: randomUUID(),
        subscriptionType: 'Saas',
        pricebookVersion: '2025.1',
        subscriptionTier: 'Enterprise',
        environments: environments.map(({ id, guid, name, type }) => ({ id, guid, name, type })),
      },
    ],
  });

  // Ingestion: batches of 10,000 (the API's limit per request), spread over a year, 10 % watermarked.
  let ingestMs = 0;
  let seed = 1;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (let done = 0; done < ingestEvents; done += INGEST_BATCH) {
    const batch: RenderEventInput[] = Array.from(
      { length: Math.min(INGEST_BATCH, ingestEvents - done) },
      () => ({
        environmentGuid: environments[Math.floor(random() * ENVIRONMENTS)]!.guid,
        kind: KINDS[Math.floor(random() * KINDS.length)]!,
        watermarked: random() < 0.1,
        at: new Date(todayUtc - Math.floor(random() * 365 * DAY)).toISOString(),
      }),
    );
    const start = process.hrtime.bigint();
    await ingestRenderEvents(database, batch);
    ingestMs += ms(start);
  }
  const ingestRate = Math.round(ingestEvents / (ingestMs / 1000));
  console.info(`backend ${backend.name}: ingested ${ingestEvents} events at ${ingestRate} events/s`);

  await database.db.execute(sql`create table bench_raw_events (
    environment_id integer not null, at timestamptz not null, kind text not null, watermarked boolean not null)`);

  const results = [];
  for (const events of scales) {
    // The same events twice: one row each in the raw table, and rolled up into render_daily as ingestion would.
    const setup = process.hrtime.bigint();
    await database.db.execute(sql`truncate bench_raw_events, render_daily, render_monthly`);
    await database.db.execute(sql`drop index if exists bench_raw_events_env_at`);
    await database.db.execute(sql`
      insert into bench_raw_events
      select 1 + (g * 2654435761) % ${ENVIRONMENTS},
             ${new Date(todayUtc + DAY).toISOString()}::timestamptz - ((g * 40503) % (365 * 86400) + 1) * interval '1 second',
             (array['Pdf','Image','Studio-Gif','Mp4'])[1 + (g * 97) % 4],
             (g * 31) % 10 = 0
      from generate_series(0::bigint, ${events - 1}::bigint) g`);
    await database.db.execute(
      sql`create index bench_raw_events_env_at on bench_raw_events (environment_id, at)`,
    );
    await database.db.execute(sql`
      insert into render_daily (environment_id, day, kind, watermarked, count)
      select environment_id, (at at time zone 'UTC')::date, kind, watermarked, count(*)
      from bench_raw_events group by 1, 2, 3, 4`);
    await database.db.execute(sql`
      insert into render_monthly (environment_id, month, kind, watermarked, count)
      select environment_id, date_trunc('month', day)::date, kind, watermarked, sum(count)
      from render_daily group by 1, 2, 3, 4`);
    await database.db.execute(sql`analyze bench_raw_events`);
    await database.db.execute(sql`analyze render_daily`);
    await database.db.execute(sql`analyze render_monthly`);
    const setupMs = ms(setup);

    const query = rendersQuery(new Date(todayUtc), 5);
    // A custom range whose first and last months are partial: edge days come from render_daily.
    const custom = rendersQuery(new Date(todayUtc), 5, {
      startDate: new Date(todayUtc - 300 * DAY).toISOString().slice(0, 10),
      endDate: new Date(todayUtc - 20 * DAY).toISOString().slice(0, 10),
    });
    const run = (source: Source, q = query) => subscriptionRenders(database.db, source, SUBSCRIPTION_ID, q);
    const time = async (source: Source, iterations: number, q = query) => {
      await run(source, q); // warm the cache and plans
      const samples: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const start = process.hrtime.bigint();
        await run(source, q);
        samples.push(ms(start));
      }
      return { p50: percentile(samples, 50), p95: percentile(samples, 95), iterations };
    };
    const rawAnswer = JSON.stringify(await run('raw'));
    const same =
      JSON.stringify(await run('rollup')) === rawAnswer && JSON.stringify(await run('daily')) === rawAnswer;
    const rawCustom = JSON.stringify(await run('raw', custom));
    const sameCustom =
      JSON.stringify(await run('rollup', custom)) === rawCustom &&
      JSON.stringify(await run('daily', custom)) === rawCustom;
    const rollup = await time('rollup', 100);
    const daily = await time('daily', 30);
    const customRollup = await time('rollup', 50, custom);
    const raw = await time('raw', events >= 10_000_000 ? 3 : 5);
    const [rows] = await queryRows<{ daily: number; monthly: number }>(
      database.db,
      sql`select (select count(*) from render_daily)::int as daily, (select count(*) from render_monthly)::int as monthly`,
    );
    results.push({
      events,
      dailyRows: rows?.daily ?? 0,
      monthlyRows: rows?.monthly ?? 0,
      setupMs: Math.round(setupMs),
      sameAnswer: same && sameCustom,
      rollup: { p50Ms: round(rollup.p50), p95Ms: round(rollup.p95), iterations: rollup.iterations },
      daily: { p50Ms: round(daily.p50), p95Ms: round(daily.p95), iterations: daily.iterations },
      custom: { p50Ms: round(customRollup.p50), p95Ms: round(customRollup.p95) },
      raw: { p50Ms: round(raw.p50), p95Ms: round(raw.p95), iterations: raw.iterations },
      rawOverRollupP50: round(raw.p50 / rollup.p50),
    });
    console.info(`${events} events: rollup p50 ${round(rollup.p50)} ms, raw p50 ${round(raw.p50)} ms`);
  }

  const first = results[0]!;
  const last = results.at(-1)!;
  const growth = round(last.rollup.p95Ms / first.rollup.p95Ms);
  const scale = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000} M` : `${n / 1000} k`);
  const on = `(${backend.name})`;
  // The shape every bench writes (bench/REPORT.md aggregates bench/results/*.json).
  const report = {
    name: 'store',
    figures: [
      {
        label: `ingest rate ${on}, batches of ${INGEST_BATCH}`,
        value: ingestRate,
        unit: 'events/s',
        target: '≥ 100,000 on PostgreSQL',
        ...(onPostgres ? { met: ingestRate >= 100_000 } : {}),
      },
      ...results.flatMap((r) => [
        {
          label: `subscription renders ${on}, ${scale(r.events)} events, p95 (render_monthly + edge days)`,
          value: r.rollup.p95Ms,
          unit: 'ms',
          target: '≤ 15',
          met: r.rollup.p95Ms <= 15,
        },
        {
          label: `subscription renders ${on}, ${scale(r.events)} events, p50 (render_monthly + edge days)`,
          value: r.rollup.p50Ms,
          unit: 'ms',
        },
        {
          label: `subscription renders ${on}, ${scale(r.events)} events, p50 (render_daily only, before)`,
          value: r.daily.p50Ms,
          unit: 'ms',
          anchor: r.rollup.p50Ms,
          ratio: round(r.daily.p50Ms / r.rollup.p50Ms),
        },
        {
          label: `subscription renders ${on}, ${scale(r.events)} events, custom range with partial edge months, p95`,
          value: r.custom.p95Ms,
          unit: 'ms',
        },
        {
          label: `subscription renders ${on}, ${scale(r.events)} events, p50 from raw events`,
          value: r.raw.p50Ms,
          unit: 'ms',
          anchor: r.rollup.p50Ms,
          ratio: r.rawOverRollupP50,
        },
        {
          label: `roll-up rows ${on}, ${scale(r.events)} events (daily / monthly)`,
          value: r.dailyRows,
          unit: 'rows',
          anchor: r.monthlyRows,
          ratio: round(r.dailyRows / Math.max(1, r.monthlyRows)),
        },
        {
          label: `same answer as raw events ${on}, ${scale(r.events)} events (default and custom range)`,
          value: r.sameAnswer ? 1 : 0,
          unit: 'bool',
          met: r.sameAnswer,
        },
      ]),
      {
        label: `subscription renders p95 at ${scale(last.events)} / at ${scale(first.events)} ${on}`,
        value: growth,
        unit: '×',
        target: '≤ 1.5',
        met: growth <= 1.5,
      },
    ],
  };

  console.info('');
  console.info(
    `backend: ${backend.name}   ingest: ${ingestRate.toLocaleString('en')} events/s (${ingestEvents} events)`,
  );
  console.table(
    results.map((r) => ({
      events: r.events.toLocaleString('en'),
      'rollup p50 ms': r.rollup.p50Ms,
      'rollup p95 ms': r.rollup.p95Ms,
      'daily-only p50 ms': r.daily.p50Ms,
      'custom p95 ms': r.custom.p95Ms,
      'raw p50 ms': r.raw.p50Ms,
      'raw / rollup': r.rawOverRollupP50,
      'same answer': r.sameAnswer,
    })),
  );
  console.info(
    `rollup p95 at ${last.events.toLocaleString('en')} / at ${first.events.toLocaleString('en')}: ${growth}`,
  );

  const out = fileURLToPath(new URL('../../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(`${out}store.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.info(`written: bench/results/store.json`);
} finally {
  await database.close();
}

function round(value: number) {
  return Math.round(value * 100) / 100;
}
