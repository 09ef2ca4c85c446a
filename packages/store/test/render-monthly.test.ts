import {
  environmentRenderGroups,
  parseRenderQuery,
  type RenderEnvironment,
  subscriptionRenderGroups,
} from '@platform/core';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDataFile } from '../src/import/import-data-file.ts';
import { queryRows } from '../src/query-rows.ts';
import { ingestRenderEvents } from '../src/renders/ingest-render-events.ts';
import { listRenderRows, listRenderTotalRows, sumRenders } from '../src/repos/admin/renders.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { smallFile } from './fixture.ts';

const backends = await testBackends();
const DAY = 86_400_000;
const ORIGIN = Date.UTC(2024, 10, 20);
const KINDS = ['Pdf', 'Image', 'Mp4'];

type Event = {
  env: number;
  dayOffset: number;
  ms: number;
  kind: number;
  watermarked: boolean;
  count: number;
};
const event = fc.record({
  env: fc.integer({ min: 0, max: 2 }),
  dayOffset: fc.integer({ min: 0, max: 500 }),
  ms: fc.integer({ min: 0, max: DAY - 1 }),
  kind: fc.integer({ min: 0, max: KINDS.length - 1 }),
  watermarked: fc.boolean(),
  count: fc.integer({ min: 1, max: 9 }),
});
const dayOf = (offset: number) => new Date(ORIGIN + offset * DAY).toISOString().slice(0, 10);

/** render_monthly holds exactly the monthly sums of render_daily. */
const monthlyDrift = (database: TestDatabase) =>
  queryRows(
    database.db,
    sql`(select environment_id, month, kind, watermarked, count from render_monthly
         except
         select environment_id, date_trunc('month', day)::date, kind, watermarked, sum(count)
         from render_daily group by 1, 2, 3, 4)
        union all
        (select environment_id, date_trunc('month', day)::date, kind, watermarked, sum(count)
         from render_daily group by 1, 2, 3, 4
         except
         select environment_id, month, kind, watermarked, count from render_monthly)`,
  );

describe.each(backends)('render_monthly on $name', (backend) => {
  let database: TestDatabase;
  let file: ReturnType<typeof smallFile>;
  let environments: RenderEnvironment[];
  beforeAll(async () => {
    database = await backend.fresh();
    file = smallFile();
    file.renderEvents = [];
    await importDataFile(database, file);
    environments = file.subscriptions[0]!.environments.map((e) => ({
      guid: e.guid,
      name: e.name,
      type: e.type as RenderEnvironment['type'],
    }));
  }, 120_000);
  afterAll(() => database?.close());

  const clear = () => database.db.execute(sql`truncate render_daily, render_monthly, imported_render_events`);
  const toInput = (e: Event) => ({
    environmentGuid: environments[e.env]!.guid,
    kind: KINDS[e.kind]!,
    watermarked: e.watermarked,
    at: new Date(ORIGIN + e.dayOffset * DAY + e.ms).toISOString(),
    count: e.count,
  });
  const importEvents = (events: Event[]) =>
    importDataFile(database, { ...file, renderEvents: events.map(toInput) });

  it('answers custom ranges with partial edge months as render_daily alone would, and as the events say', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 60 }),
        fc.array(event, { maxLength: 60 }),
        fc.integer({ min: -20, max: 510 }),
        fc.integer({ min: 0, max: 420 }),
        fc.integer({ min: 1, max: 3 }),
        async (ingested, imported, startOffset, length, top) => {
          await clear();
          await ingestRenderEvents(database, ingested.map(toInput));
          await importEvents(imported);
          expect(await monthlyDrift(database)).toEqual([]);

          const startDay = dayOf(startOffset);
          const endDay = dayOf(startOffset + length);
          const query = parseRenderQuery(
            { groupBy: 'year', startDate: startDay, endDate: endDay, top: String(top) },
            new Date(),
            { allowTop: true },
          );
          const scope = { subscriptionId: 101 };
          const monthly = await listRenderRows(database.db, scope, query);
          const daily = await listRenderRows(database.db, scope, { startDay, endDay });
          const truth = [...ingested, ...imported]
            .filter((e) => dayOf(e.dayOffset) >= startDay && dayOf(e.dayOffset) <= endDay)
            .map((e) => ({ ...toInput(e), day: dayOf(e.dayOffset) }));

          const expected = subscriptionRenderGroups(environments, truth, query);
          expect(subscriptionRenderGroups(environments, monthly, query)).toEqual(expected);
          expect(subscriptionRenderGroups(environments, daily, query)).toEqual(expected);
          const totals = await listRenderTotalRows(database.db, scope, query);
          expect(subscriptionRenderGroups(environments, totals, query)).toEqual(expected);
          const first = environments[0]!.guid;
          expect(
            environmentRenderGroups(await listRenderRows(database.db, { environmentId: 1 }, query), query),
          ).toEqual(
            environmentRenderGroups(
              truth.filter((row) => row.environmentGuid === first),
              query,
            ),
          );
          expect(await sumRenders(database.db, scope, { startDay, endDay })).toEqual({
            renders: truth.filter((e) => !e.watermarked).reduce((n, e) => n + e.count, 0),
            watermarkedRenders: truth.filter((e) => e.watermarked).reduce((n, e) => n + e.count, 0),
          });
        },
      ),
      { numRuns: backend.name === 'pglite' ? 25 : 40 },
    );
  }, 120_000);

  it('applies import deltas to both roll-ups: the same file twice changes nothing, a changed count changes both', async () => {
    await clear();
    const events: Event[] = Array.from({ length: 40 }, (_, i) => ({
      env: i % 3,
      dayOffset: i * 7,
      ms: i * 1000,
      kind: i % KINDS.length,
      watermarked: i % 4 === 0,
      count: 1 + (i % 5),
    }));
    await importEvents(events);
    const snapshot = () =>
      queryRows(
        database.db,
        sql`select month::text, kind, watermarked, count::int from render_monthly order by 1, 2, 3`,
      );
    const once = await snapshot();
    await importEvents(events);
    expect(await snapshot()).toEqual(once);
    expect(await monthlyDrift(database)).toEqual([]);
    await importEvents(events.map((e, i) => (i % 2 === 0 ? { ...e, count: e.count + 3 } : e)));
    expect(await snapshot()).not.toEqual(once);
    expect(await monthlyDrift(database)).toEqual([]);
  });
});
