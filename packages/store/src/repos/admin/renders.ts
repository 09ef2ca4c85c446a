import {
  type EnvironmentRenderRow,
  planRangeSum,
  type SubscriptionRenderRow,
  splitWholeMonths,
} from '@platform/core';
import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../../query-rows.ts';
import type { Db } from '../../types.ts';

/** Which renders to count: one environment's, or those of every environment of a subscription. */
export type RenderScope = { environmentId: number } | { subscriptionId: number };

/** An inclusive range of UTC days, `YYYY-MM-DD`. */
export type RenderDays = { startDay: string; endDay: string };

export type RenderTotals = { renders: number; watermarkedRenders: number };

/**
 * The environments counted. As `= any(array(...))` rather than `in (select ...)`: the planner then reads the
 * (environment_id, day) primary key per environment instead of hash-joining a scan of the whole roll-up, which
 * made a week of a 50-environment subscription cost as much as a year.
 */
const environmentIds = (scope: RenderScope): SQL =>
  'environmentId' in scope
    ? sql`environment_id = ${scope.environmentId}`
    : sql`environment_id = any(array(select id from environments where subscription_id = ${scope.subscriptionId}))`;

/**
 * The roll-up rows (environment_id, day, kind, watermarked, count) that count `days`: whole months from
 * `render_monthly` (`day` is then the month's first day), the partial months at the edges from `render_daily`.
 * A year of a subscription is then a few thousand rows, not a few hundred thousand. With `monthly: false`, every
 * day comes from `render_daily` (callers that group by day).
 */
const rollupRows = (scope: RenderScope, days: RenderDays, monthly: boolean): SQL => {
  const ids = environmentIds(scope);
  const split = monthly ? splitWholeMonths(days) : { months: undefined, days: [days] };
  const parts: SQL[] = split.days.map(
    (range) => sql`select environment_id, day, kind, watermarked, count from render_daily
      where ${ids} and day between ${range.startDay}::date and ${range.endDay}::date`,
  );
  if (split.months) {
    parts.push(sql`select environment_id, month as day, kind, watermarked, count from render_monthly
      where ${ids} and month between ${split.months.first}::date and ${split.months.last}::date`);
  }
  return sql.join(parts, sql` union all `);
};

/**
 * Render counts per environment, kind and watermark flag within `days`: per UTC day, or with `groupBy: 'year'`
 * per whole month (dated by its first day) and per day only in the partial months at the range's edges, which is
 * all that month groups need (CONTRACT.md §5: renders outside the range are not counted, even in an edge month).
 * The sum keeps one row per key whatever the tables hold.
 */
export const listRenderRows = async (
  db: Db,
  scope: RenderScope,
  days: RenderDays & { groupBy?: 'year' | 'month' },
): Promise<EnvironmentRenderRow[]> => {
  const rows = await queryRows<{
    environmentGuid: string;
    day: string;
    kind: string;
    watermarked: boolean;
    count: number;
  }>(
    db,
    sql`select e.guid as "environmentGuid", to_char(r.day, 'YYYY-MM-DD') as day, r.kind, r.watermarked,
          sum(r.count)::float8 as count
        from (${rollupRows(scope, days, days.groupBy === 'year')}) r
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
  const rows = await queryRows<{ environmentGuid: string; day: string; watermarked: boolean; count: number }>(
    db,
    sql`select e.guid as "environmentGuid", to_char(r.day, 'YYYY-MM-DD') as day, r.watermarked,
          sum(r.count)::float8 as count
        from (${rollupRows(scope, days, days.groupBy === 'year')}) r
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
  const ids = environmentIds(scope);
  const parts = ranges.flatMap((days, i) => {
    const plan = planRangeSum(days);
    return [
      ...plan.months.map(
        (m) => sql`select ${i}::int as part, watermarked, count from render_monthly
          where ${ids} and month between ${m.first}::date and ${m.last}::date`,
      ),
      ...plan.days.map(
        (r) => sql`select ${i}::int as part, watermarked, count from render_daily
          where ${ids} and day between ${r.startDay}::date and ${r.endDay}::date`,
      ),
      ...plan.minus.map(
        (r) => sql`select ${i}::int as part, watermarked, -count as count from render_daily
          where ${ids} and day between ${r.startDay}::date and ${r.endDay}::date`,
      ),
    ];
  });
  if (parts.length === 0) return [];
  const rows = await queryRows<{ part: number; renders: number; watermarkedRenders: number }>(
    db,
    sql`select part, coalesce(sum(count) filter (where not watermarked), 0)::float8 as renders,
          coalesce(sum(count) filter (where watermarked), 0)::float8 as "watermarkedRenders"
        from (${sql.join(parts, sql` union all `)}) r
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

/** Totals over `days` days as means per day, rounded down (CONTRACT.md §5 `averageRenders`). */
export const perDay = (totals: RenderTotals, days: number): RenderTotals => {
  const count = Math.max(1, days);
  return {
    renders: Math.floor(totals.renders / count),
    watermarkedRenders: Math.floor(totals.watermarkedRenders / count),
  };
};

/**
 * Mean renders per day over `days` (CONTRACT.md §5 `averageRenders`): the totals divided by the number of
 * days in the range, rounded down.
 */
export const averageDailyRenders = async (
  db: Db,
  scope: RenderScope,
  days: RenderDays & { count: number },
): Promise<RenderTotals> => {
  return perDay(await sumRenders(db, scope, days), days.count);
};
