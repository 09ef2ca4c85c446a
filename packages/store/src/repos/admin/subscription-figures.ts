import type { SubscriptionRenderRow } from '@platform/core';
import { eq, sql } from 'drizzle-orm';
import { environments, subscriptions } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';
import { type EnvironmentRow, listingOrder } from './environments.ts';
import {
  type MembershipRecord,
  membershipColumns,
  templateDesignersOf,
  toMembershipRecord,
} from './memberships.ts';
import { prepared } from './prepared.ts';
import { newShape, rangeSumRows, rollupRows } from './render-sql.ts';
import type { RenderDays, RenderTotals } from './renders.ts';
import type { SubscriptionRow } from './subscriptions.ts';

/**
 * What the subscription endpoints read after the access check, each in one round trip instead of two or three:
 * the same answers as `listEnvironmentsOfSubscription`, `sumRendersInRanges`, `countTemplateDesigners` and
 * `listRenderTotalRows`, as single statements prepared per shape of their day ranges.
 */
export type SubscriptionFigureRows = {
  environments: EnvironmentRow[];
  /** Totals within each of the ranges asked for, in their order. */
  totals: RenderTotals[];
  templateDesigners: number;
};

type PartTotals = [part: number, renders: number, watermarkedRenders: number][] | null;

/**
 * The environments in listing order, each row also carrying the range totals and the designer count: those are
 * uncorrelated subqueries, which PostgreSQL evaluates once per statement. Without environments there are no
 * rows, and then nothing to count either: the totals and the count are zero.
 */
export const loadSubscriptionFigures = async (
  db: Db,
  subscriptionId: number,
  ranges: readonly RenderDays[],
): Promise<SubscriptionFigureRows> => {
  const shape = newShape({ subscriptionId }, 'figures');
  const parts =
    rangeSumRows({ subscriptionId }, ranges, shape) ??
    sql`select 0 as part, false as watermarked, 0 as count where false`;
  const name = `admin_${shape.key}`;
  const statement = prepared(db, name, () =>
    db
      .select({
        environment: environments,
        totals: sql<PartTotals>`(select json_agg(json_build_array(part, renders, watermarked)) from (
          select part, coalesce(sum(count) filter (where not watermarked), 0)::float8 as renders,
            coalesce(sum(count) filter (where watermarked), 0)::float8 as watermarked
          from (${parts}) r group by part) t)`,
        templateDesigners: templateDesignersOf(sql`${sql.placeholder('scope')}::int`),
      })
      .from(environments)
      .where(eq(environments.subscriptionId, sql.placeholder('scope')))
      .orderBy(...listingOrder)
      .prepare(name),
  );
  const rows = await statement.execute(shape.values);
  const totals = parseJson<PartTotals>(rows[0]?.totals) ?? [];
  return {
    environments: rows.map((row) => row.environment),
    totals: ranges.map((_, i) => {
      const found = totals.find(([part]) => Number(part) === i);
      return { renders: Number(found?.[1] ?? 0), watermarkedRenders: Number(found?.[2] ?? 0) };
    }),
    templateDesigners: Number(rows[0]?.templateDesigners ?? 0),
  };
};

export type SubscriptionRenderData = {
  subscription: SubscriptionRow;
  membership: MembershipRecord | undefined;
  /** The subscription's environments in listing order. */
  environments: { guid: string; name: string; type: string }[];
  rows: SubscriptionRenderRow[];
};

/**
 * A subscription by guid with the membership of `userId` (as `findSubscriptionWithMembership`), its environments
 * and its render total rows within `days`, in one round trip: the caller checks access before using the rest.
 * With `groupBy: 'year'` the days of the edge months are summed per month, dated by the month's first day inside
 * the range: month groups need no more, and a year is then about a thousand rows instead of a few thousand.
 */
export const findSubscriptionRenders = async (
  db: Db,
  guid: string,
  userId: string,
  days: RenderDays & { groupBy?: 'year' | 'month' },
): Promise<SubscriptionRenderData | undefined> => {
  const scope = { subscriptionId: 0 };
  const shape = newShape(scope, 'subscription_renders', sql`subscriptions.id`);
  const byMonth = days.groupBy === 'year';
  const rollup = rollupRows(scope, days, byMonth, shape);
  const day = byMonth
    ? sql`greatest(date_trunc('month', r.day)::date, ${shape.date(days.startDay)})`
    : sql`r.day`;
  // The month dating is part of the statement: a year range inside one month reads the same roll-up rows as a day
  // grouping, and without this the two would share one prepared statement (the second then missing a date).
  shape.key += byMonth ? '_months' : '_days';
  shape.values.guid = guid;
  shape.values.userId = userId;
  const name = `admin_${shape.key}`;
  const statement = prepared(db, name, () =>
    db
      .select({
        subscription: subscriptions,
        ...membershipColumns(sql`subscriptions.id`),
        environments: sql<EnvironmentJson>`(select json_agg(json_build_array(e.guid, e.name, e.type) order by
            case e.type when 'Production' then 0 when 'Sandbox' then 1 when 'Development' then 2 else 3 end,
            e.name collate "C", e.id)
          from environments e where e.subscription_id = subscriptions.id)`,
        rows: sql<RowJson>`(select json_agg(json_build_array(e.guid, to_char(t.day, 'YYYY-MM-DD'), t.watermarked, t.count))
          from (select r.environment_id, ${day} as day, r.watermarked, sum(r.count)::float8 as count
            from (${rollup}) r group by 1, 2, 3) t
          join environments e on e.id = t.environment_id)`,
      })
      .from(subscriptions)
      .where(eq(subscriptions.guid, sql.placeholder('guid')))
      .limit(1)
      .prepare(name),
  );
  const [row] = await statement.execute(shape.values);
  if (!row) return undefined;
  const envs = parseJson<EnvironmentJson>(row.environments) ?? [];
  const rows = parseJson<RowJson>(row.rows) ?? [];
  return {
    subscription: row.subscription,
    membership: toMembershipRecord(row.member, row.environmentRoles),
    environments: envs.map(([guid, name, type]) => ({ guid, name, type })),
    rows: rows.map(([environmentGuid, day, watermarked, count]) => ({
      environmentGuid,
      day,
      watermarked,
      count: Number(count),
    })),
  };
};

type EnvironmentJson = [guid: string, name: string, type: string][] | null;
type RowJson = [guid: string, day: string, watermarked: boolean, count: number][] | null;

/** json values arrive parsed from node-postgres and PGlite alike; a driver handing text is parsed here. */
const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
