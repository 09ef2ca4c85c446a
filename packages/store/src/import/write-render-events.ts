import type { RenderEvent } from '@platform/core';
import { sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import { turnBudget } from './turn-budget.ts';
import { EVENTS_PER_STATEMENT, type Progress, type Tx } from './write-data-file.ts';
import { addDelta, type RollupDelta, writeRollupDeltas } from './write-rollup-deltas.ts';

/**
 * The events' identities are looked up in this many maps, picked by instant: one Map of a million entries grows by
 * rehashing all of them in one go (100 ms at half a million, on the server's thread); a prime spreads events
 * whole seconds apart over all of them.
 */
const SHARDS = 1021;

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
 * recorded for that identity reaches `render_daily` and `render_monthly` (in the same transaction). Importing the
 * same file again therefore adds nothing.
 */
export const writeRenderEvents = async (
  tx: Tx,
  events: readonly RenderEvent[],
  environmentIds: ReadonlyMap<string, number>,
  progress: Progress,
  /** Events per statement: fewer on PGlite, whose statements run on this thread (write-data-file.ts). */
  perStatement: number = EVENTS_PER_STATEMENT,
): Promise<void> => {
  const turn = turnBudget();
  // The same identity twice in one file counts once, with the counts summed. Instants are compared at the
  // millisecond, in UTC, so `10:00:00Z` and `11:00:00+01:00` are one identity.
  const byIdentity = Array.from({ length: SHARDS }, () => new Map<string, ImportedEvent>());
  // In the order of the file, as they are written.
  const rows: ImportedEvent[] = [];
  for (const event of events) {
    // A few milliseconds per turn of the event loop: a large file must not hold the server.
    if (turn.spent()) await turn.next();
    const environmentId = environmentIds.get(event.environmentGuid.toLowerCase())!;
    const instant = new Date(event.at);
    const at = instant.toISOString();
    const key = `${environmentId}|${at}|${event.kind}|${event.watermarked}`;
    const shard = byIdentity[Math.abs(instant.getTime() + environmentId) % SHARDS]!;
    const row = shard.get(key);
    if (row) {
      row.count += event.count;
      continue;
    }
    const created = {
      environment_id: environmentId,
      at,
      kind: event.kind,
      watermarked: event.watermarked,
      count: event.count,
    };
    shard.set(key, created);
    rows.push(created);
  }
  const daily = new Map<string, RollupDelta>();
  let reported = 0;
  const record = async (batch: readonly ImportedEvent[]) => {
    // Turns of the event loop between statements: PGlite answers a statement in a microtask, so without them the
    // whole write would run as one turn (a 109 MB file held the server 28 s). The transaction stays one.
    if (turn.spent()) await turn.next();
    // All sub-statements see the snapshot from before the statement: `previous` reads the count the earlier
    // import left, while `stored` overwrites it. The differences, summed by roll-up row, are added to the
    // roll-ups once all events are recorded (write-rollup-deltas.ts). float8 holds a batch's sum exactly (far
    // below 2^53), and both drivers answer it as a number.
    const changed = await queryRows<RollupDelta>(
      tx,
      sql`
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
      )
      select environment_id as "environmentId", to_char(at at time zone 'UTC', 'YYYY-MM-DD') as period, kind,
        watermarked, sum(delta)::float8 as delta
      from previous
      group by 1, 2, 3, 4
      having sum(delta) <> 0`,
    );
    for (const row of changed) addDelta(daily, row);
    reported += batch.length;
    progress(batch.length);
  };
  for (let start = 0; start < rows.length; start += perStatement)
    await record(rows.slice(start, start + perStatement));
  await writeRollupDeltas(tx, daily, perStatement);
  // Events folded into one identity still count as read.
  if (events.length > reported) progress(events.length - reported);
};
