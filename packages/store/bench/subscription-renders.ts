import {
  type EnvironmentRenderRow,
  type EnvironmentType,
  parseRenderQuery,
  type RenderQuery,
  type SubscriptionRendersModel,
  subscriptionRenderGroups,
} from '@platform/core';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/query-rows.ts';
import { listEnvironmentsOfSubscription } from '../src/repos/admin/environments.ts';
import { listRenderRows, listRenderTotalRows } from '../src/repos/admin/renders.ts';
import type { Db } from '../src/types.ts';

/**
 * Where the counts come from: `rollup` is what the API does (whole months from `render_monthly`, edge days from
 * `render_daily`, kinds summed in SQL), `daily` the previous way (every day and kind from `render_daily`), `raw` a table of one row per render.
 */
export type Source = 'rollup' | 'daily' | 'raw';

export const rendersQuery = (now: Date, top: number, range?: { startDate: string; endDate: string }) =>
  parseRenderQuery({ groupBy: 'year', top: String(top), ...range }, now, { allowTop: true });

const rawRows = (db: Db, subscriptionId: number, query: RenderQuery) =>
  queryRows<EnvironmentRenderRow>(
    db,
    sql`select e.guid as "environmentGuid", to_char((r.at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
          r.kind, r.watermarked, count(*)::float8 as count
        from bench_raw_events r join environments e on e.id = r.environment_id
        where e.subscription_id = ${subscriptionId}
          and r.at >= ${query.startDay}::date and r.at < ${query.endDay}::date + 1
        group by 1, 2, 3, 4`,
  );

/**
 * `GET /subscriptions/{id}/renders?groupBy=year&top=N` as the service computes it (environments and counts read
 * together, grouped by core), with the counts taken from `source`.
 */
export const subscriptionRenders = async (
  db: Db,
  source: Source,
  subscriptionId: number,
  query: RenderQuery,
): Promise<SubscriptionRendersModel[]> => {
  const scope = { subscriptionId };
  const [environments, rows] = await Promise.all([
    listEnvironmentsOfSubscription(db, subscriptionId),
    source === 'raw'
      ? rawRows(db, subscriptionId, query)
      : source === 'rollup'
        ? listRenderTotalRows(db, scope, query)
        : listRenderRows(db, scope, { startDay: query.startDay, endDay: query.endDay }),
  ]);
  return subscriptionRenderGroups(
    environments.map((env) => ({ guid: env.guid, name: env.name, type: env.type as EnvironmentType })),
    rows,
    query,
  );
};
