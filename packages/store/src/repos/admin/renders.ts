import type { EnvironmentRenderRow, SubscriptionRenderRow } from '@platform/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../types.ts';
import { preparedRows } from './prepared.ts';
import { newShape, rangeSumRows, rollupRows, type Shape } from './render-sql.ts';

/** Which renders to count: one environment's, or those of every environment of a subscription. */
export type RenderScope = { environmentId: number } | { subscriptionId: number };

/** An inclusive range of UTC days, `YYYY-MM-DD`. */
export type RenderDays = { startDay: string; endDay: string };

export type RenderTotals = { renders: number; watermarkedRenders: number };

/**
 * Runs a statement whose SQL depends only on its shape: built on the first call of each shape (the dates read by
 * `build` then only name placeholders), executed with this call's values.
 */
const runShaped = <T extends Record<string, unknown>>(
  db: Db,
  shape: Shape,
  build: (shape: Shape) => SQL,
): Promise<T[]> => {
  // Building registers the values and completes the key, so it runs for every call; the SQL it returns is only
  // kept the first time its shape is seen.
  const query = build(shape);
  return preparedRows<T>(db, `admin_${shape.key}`, () => query)(shape.values);
};

/**
 * Render counts per environment, kind and watermark flag within `days`: per UTC day, or with `groupBy: 'year'`
 * per whole month (dated by its first day) and per day only in the partial months at the range's edges, which is
 * all that month groups need (docs/admin-api.md: renders outside the range are not counted, even in an edge month).
 * The sum keeps one row per key whatever the tables hold.
 */
export const listRenderRows = async (
  db: Db,
  scope: RenderScope,
  days: RenderDays & { groupBy?: 'year' | 'month' },
): Promise<EnvironmentRenderRow[]> => {
  const rows = await runShaped<{
    environmentGuid: string;
    day: string;
    kind: string;
    watermarked: boolean;
    count: number;
  }>(
    db,
    newShape(scope, 'render_rows'),
    (
      shape,
    ) => sql`select e.guid as "environmentGuid", to_char(r.day, 'YYYY-MM-DD') as day, r.kind, r.watermarked,
          sum(r.count)::float8 as count
        from (${rollupRows(scope, days, days.groupBy === 'year', shape)}) r
        join environments e on e.id = r.environment_id
        group by e.guid, r.day, r.kind, r.watermarked
        order by r.day`,
  );
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
};

/**
 * As `listRenderRows`, with the kinds summed: one row per environment, day (or whole month) and watermark flag,
 * all that subscription groups need, and a quarter of the rows to read and send.
 */
export const listRenderTotalRows = async (
  db: Db,
  scope: RenderScope,
  days: RenderDays & { groupBy?: 'year' | 'month' },
): Promise<SubscriptionRenderRow[]> => {
  const rows = await runShaped<{ environmentGuid: string; day: string; watermarked: boolean; count: number }>(
    db,
    newShape(scope, 'render_totals'),
    (shape) => sql`select e.guid as "environmentGuid", to_char(r.day, 'YYYY-MM-DD') as day, r.watermarked,
          sum(r.count)::float8 as count
        from (${rollupRows(scope, days, days.groupBy === 'year', shape)}) r
        join environments e on e.id = r.environment_id
        group by e.guid, r.day, r.watermarked`,
  );
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
};

/**
 * Non-watermarked and watermarked render totals within each of `ranges`, in one statement: whole months from the
 * monthly roll-up, partial months by their days or as the month minus the days outside the range, whichever
 * reads fewer days (core's `planRangeSum`).
 */
export const sumRendersInRanges = async (
  db: Db,
  scope: RenderScope,
  ranges: readonly RenderDays[],
): Promise<RenderTotals[]> => {
  const shape = newShape(scope, 'render_sums');
  const parts = rangeSumRows(scope, ranges, shape);
  if (!parts) return [];
  const rows = await runShaped<{ part: number; renders: number; watermarkedRenders: number }>(
    db,
    shape,
    () => sql`select part, coalesce(sum(count) filter (where not watermarked), 0)::float8 as renders,
          coalesce(sum(count) filter (where watermarked), 0)::float8 as "watermarkedRenders"
        from (${parts}) r
        group by part`,
  );
  return ranges.map((_, i) => {
    const row = rows.find((r) => Number(r.part) === i);
    return { renders: Number(row?.renders ?? 0), watermarkedRenders: Number(row?.watermarkedRenders ?? 0) };
  });
};

/** Non-watermarked and watermarked render totals within `days`. */
export const sumRenders = async (db: Db, scope: RenderScope, days: RenderDays): Promise<RenderTotals> =>
  (await sumRendersInRanges(db, scope, [days]))[0]!;

/** Totals over `days` days as means per day, rounded down (docs/admin-api.md `averageRenders`). */
export const perDay = (totals: RenderTotals, days: number): RenderTotals => {
  const count = Math.max(1, days);
  return {
    renders: Math.floor(totals.renders / count),
    watermarkedRenders: Math.floor(totals.watermarkedRenders / count),
  };
};

/**
 * Mean renders per day over `days` (docs/admin-api.md `averageRenders`): the totals divided by the number of
 * days in the range, rounded down.
 */
export const averageDailyRenders = async (
  db: Db,
  scope: RenderScope,
  days: RenderDays & { count: number },
): Promise<RenderTotals> => {
  return perDay(await sumRenders(db, scope, days), days.count);
};
