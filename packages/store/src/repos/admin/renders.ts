import type { EnvironmentRenderRow } from '@platform/core';
import { and, asc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import { environments, renderDaily } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';

/** Which renders to count: one environment's, or those of every environment of a subscription. */
export type RenderScope = { environmentId: number } | { subscriptionId: number };

/** An inclusive range of UTC days, `YYYY-MM-DD`. */
export type RenderDays = { startDay: string; endDay: string };

export type RenderTotals = { renders: number; watermarkedRenders: number };

const scopeCondition = (scope: RenderScope): SQL =>
  'environmentId' in scope
    ? eq(renderDaily.environmentId, scope.environmentId)
    : eq(environments.subscriptionId, scope.subscriptionId);

const dayCondition = (days: RenderDays): SQL | undefined =>
  and(gte(renderDaily.day, days.startDay), lte(renderDaily.day, days.endDay));

/**
 * Render counts per environment, UTC day, kind and watermark flag within `days` (the rollup is already one
 * row per such key; the sum keeps that true whatever the table holds).
 */
export const listRenderRows = async (
  db: Db,
  scope: RenderScope,
  days: RenderDays,
): Promise<EnvironmentRenderRow[]> => {
  const rows = await db
    .select({
      environmentGuid: environments.guid,
      day: renderDaily.day,
      kind: renderDaily.kind,
      watermarked: renderDaily.watermarked,
      count: sql<number>`sum(${renderDaily.count})`.mapWith(Number),
    })
    .from(renderDaily)
    .innerJoin(environments, eq(environments.id, renderDaily.environmentId))
    .where(and(scopeCondition(scope), dayCondition(days)))
    .groupBy(environments.guid, renderDaily.day, renderDaily.kind, renderDaily.watermarked)
    .orderBy(asc(renderDaily.day));
  return rows.map((row) => ({ ...row, day: String(row.day).slice(0, 10) }));
};

/** Non-watermarked and watermarked render totals within `days`. */
export const sumRenders = async (db: Db, scope: RenderScope, days: RenderDays): Promise<RenderTotals> => {
  const [row] = await db
    .select({
      renders:
        sql<number>`coalesce(sum(${renderDaily.count}) filter (where not ${renderDaily.watermarked}), 0)`.mapWith(
          Number,
        ),
      watermarkedRenders:
        sql<number>`coalesce(sum(${renderDaily.count}) filter (where ${renderDaily.watermarked}), 0)`.mapWith(
          Number,
        ),
    })
    .from(renderDaily)
    .innerJoin(environments, eq(environments.id, renderDaily.environmentId))
    .where(and(scopeCondition(scope), dayCondition(days)));
  return { renders: row?.renders ?? 0, watermarkedRenders: row?.watermarkedRenders ?? 0 };
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
  const totals = await sumRenders(db, scope, days);
  const count = Math.max(1, days.count);
  return {
    renders: Math.floor(totals.renders / count),
    watermarkedRenders: Math.floor(totals.watermarkedRenders / count),
  };
};
