import { type FieldErrors, type RenderEvent, ValidationError } from '@platform/core';
import { sql } from 'drizzle-orm';
import type { Database } from '../types.ts';
import { resolveEnvironmentIds } from './resolve-environments.ts';
import { utcDay } from './utc-day.ts';

export type RenderEventInput = Pick<RenderEvent, 'environmentGuid' | 'kind' | 'at'> & {
  watermarked?: boolean;
  count?: number;
};

/** Rolled-up rows keyed `${environmentId}|${day}|${kind}|${watermarked}`, summed in memory before the database sees them. */
type DailyRow = { environment_id: number; day: string; kind: string; watermarked: boolean; count: number };

/**
 * Runtime ingestion (`POST /api/v1/render-events`): additive, events already validated by core's `RenderEvent`.
 * The batch becomes one upsert statement into the daily and monthly roll-ups, so a batch is counted whole or not at all,
 * and its cost depends on the number of distinct (environment, day, kind, watermark) groups, not on events.
 * Returns the number of events accepted (the batch size).
 */
export const ingestRenderEvents = async (
  database: Pick<Database, 'db'>,
  events: readonly RenderEventInput[],
  /** What the caller calls the list, before `[i]` in the names of bad elements (`body` for the REST request). */
  options: { path?: string } = {},
): Promise<number> => {
  if (events.length === 0) return 0;
  const ids = await resolveEnvironmentIds(
    database.db,
    events.map((event) => event.environmentGuid),
  );

  const errors: FieldErrors = {};
  const rows = new Map<string, DailyRow>();
  events.forEach((event, index) => {
    const environmentId = ids.get(event.environmentGuid.toLowerCase());
    if (environmentId === undefined) {
      errors[`${options.path ?? ''}[${index}].environmentGuid`] = ['no environment has this guid'];
      return;
    }
    const day = utcDay(event.at);
    const watermarked = event.watermarked ?? false;
    const key = `${environmentId}|${day}|${event.kind}|${watermarked}`;
    const row = rows.get(key);
    if (row) row.count += event.count ?? 1;
    else
      rows.set(key, {
        environment_id: environmentId,
        day,
        kind: event.kind,
        watermarked,
        count: event.count ?? 1,
      });
  });
  const bad = Object.keys(errors);
  if (bad.length > 0) {
    throw new ValidationError(`${bad[0]}: no environment has this guid; nothing was recorded.`, errors);
  }

  // One statement writes both roll-ups (a data-modifying CTE), so the daily and monthly counts never disagree.
  await database.db.execute(sql`
    with incoming as (
      select * from json_to_recordset(${JSON.stringify([...rows.values()])}::json)
        as x(environment_id integer, day date, kind text, watermarked boolean, count bigint)
    ), daily as (
      insert into render_daily (environment_id, day, kind, watermarked, count)
      select environment_id, day, kind, watermarked, count from incoming
      on conflict (environment_id, day, kind, watermarked)
      do update set count = render_daily.count + excluded.count
    )
    insert into render_monthly (environment_id, month, kind, watermarked, count)
    select environment_id, date_trunc('month', day)::date, kind, watermarked, sum(count)
    from incoming
    group by 1, 2, 3, 4
    on conflict (environment_id, month, kind, watermarked)
    do update set count = render_monthly.count + excluded.count`);
  return events.length;
};
