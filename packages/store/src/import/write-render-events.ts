import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RenderEvent } from '@platform/core';
import { sql } from 'drizzle-orm';
import { chunks } from './upsert.ts';
import { EVENTS_PER_STATEMENT, type Progress, type Tx } from './write-data-file.ts';

const EVENTS_PER_TURN = 5000;

type ImportedEvent = {
  environment_id: number;
  at: string;
  kind: string;
  watermarked: boolean;
  count: number;
};

/**
 * Render events of a data file are facts with an identity (environment, instant, kind, watermark), not
 * increments: each is recorded in `imported_render_events`, and only the difference to what an earlier import
 * recorded for that identity reaches `render_daily` and `render_monthly` (in the same statement). Importing the same file again therefore adds nothing.
 */
export const writeRenderEvents = async (
  tx: Tx,
  events: readonly RenderEvent[],
  environmentIds: ReadonlyMap<string, number>,
  progress: Progress,
  /** Events per statement: fewer on PGlite, whose statements run on this thread (write-data-file.ts). */
  perStatement: number = EVENTS_PER_STATEMENT,
): Promise<void> => {
  // The same identity twice in one file counts once, with the counts summed. Instants are compared at the
  // millisecond, in UTC, so `10:00:00Z` and `11:00:00+01:00` are one identity.
  const byIdentity = new Map<string, ImportedEvent>();
  for (const [i, event] of events.entries()) {
    // A few thousand events per turn of the event loop: a large file must not hold the server.
    if (i % EVENTS_PER_TURN === EVENTS_PER_TURN - 1) await nextTurn();
    const environmentId = environmentIds.get(event.environmentGuid.toLowerCase())!;
    const at = new Date(event.at).toISOString();
    const key = `${environmentId}|${at}|${event.kind}|${event.watermarked}`;
    const row = byIdentity.get(key);
    if (row) row.count += event.count;
    else
      byIdentity.set(key, {
        environment_id: environmentId,
        at,
        kind: event.kind,
        watermarked: event.watermarked,
        count: event.count,
      });
  }
  const rows = [...byIdentity.values()];
  let reported = 0;
  for (const batch of chunks(rows, perStatement)) {
    // A turn of the event loop between statements: PGlite answers a statement in a microtask, so without it the
    // whole write would run as one turn (a 109 MB file held the server 28 s). The transaction stays one.
    await nextTurn();
    // All sub-statements see the snapshot from before the statement: `previous` reads the counts the
    // earlier import left, while `stored` overwrites them.
    await tx.execute(sql`
      with incoming as (
        select * from json_to_recordset(${JSON.stringify(batch)}::json)
          as x(environment_id integer, at timestamptz, kind text, watermarked boolean, count integer)
      ), previous as (
        select i.environment_id, i.at, i.kind, i.watermarked, i.count - coalesce(r.count, 0) as delta
        from incoming i
        left join imported_render_events r
          on r.environment_id = i.environment_id and r.at = i.at and r.kind = i.kind and r.watermarked = i.watermarked
      ), stored as (
        insert into imported_render_events (environment_id, at, kind, watermarked, count)
        select environment_id, at, kind, watermarked, count from incoming
        on conflict (environment_id, at, kind, watermarked) do update set count = excluded.count
        where imported_render_events.count <> excluded.count
      ), daily as (
        insert into render_daily (environment_id, day, kind, watermarked, count)
        select environment_id, (at at time zone 'UTC')::date, kind, watermarked, sum(delta)
        from previous
        group by 1, 2, 3, 4
        having sum(delta) <> 0
        on conflict (environment_id, day, kind, watermarked)
        do update set count = render_daily.count + excluded.count
      )
      insert into render_monthly (environment_id, month, kind, watermarked, count)
      select environment_id, date_trunc('month', at at time zone 'UTC')::date, kind, watermarked, sum(delta)
      from previous
      group by 1, 2, 3, 4
      having sum(delta) <> 0
      on conflict (environment_id, month, kind, watermarked)
      do update set count = render_monthly.count + excluded.count`);
    reported += batch.length;
    progress(batch.length);
  }
  // Events folded into one identity still count as read.
  if (events.length > reported) progress(events.length - reported);
};
