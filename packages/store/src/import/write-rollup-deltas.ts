import { sql } from 'drizzle-orm';
import { turnBudget } from './turn-budget.ts';
import { chunks } from './upsert.ts';
import type { Tx } from './write-data-file.ts';

/** What an import adds to one row of a roll-up: its key (`period` is the day or the month) and the change. */
export type RollupDelta = {
  environmentId: number;
  period: string;
  kind: string;
  watermarked: boolean;
  delta: number;
};

/** Sums `row` into `deltas`, keyed by roll-up row. */
export const addDelta = (deltas: Map<string, RollupDelta>, row: RollupDelta): void => {
  const key = `${row.environmentId}|${row.period}|${row.kind}|${row.watermarked}`;
  const existing = deltas.get(key);
  if (existing) existing.delta += row.delta;
  else deltas.set(key, { ...row });
};

/**
 * Adds an import's summed daily deltas to `render_daily`, and the same summed by month to `render_monthly`,
 * `perStatement` rows a statement, a few milliseconds of them per turn of the event loop. Each roll-up row is
 * written once per import: written with every batch of events, the same rows were updated again by each batch, and
 * each update of a row already updated in the same transaction walks all its earlier versions, so the statements
 * of a large file grew slower as it went (on PGlite, on the server's own thread).
 */
export const writeRollupDeltas = async (
  tx: Tx,
  daily: ReadonlyMap<string, RollupDelta>,
  perStatement: number,
): Promise<void> => {
  const turn = turnBudget();
  const monthly = new Map<string, RollupDelta>();
  for (const row of daily.values()) addDelta(monthly, { ...row, period: `${row.period.slice(0, 7)}-01` });
  for (const [table, period, deltas] of [
    ['render_daily', 'day', daily],
    ['render_monthly', 'month', monthly],
  ] as const) {
    const rows = [...deltas.values()].filter((row) => row.delta !== 0);
    for (const batch of chunks(rows, perStatement)) {
      if (turn.spent()) await turn.next();
      await tx.execute(sql`
        insert into ${sql.raw(table)} (environment_id, ${sql.raw(period)}, kind, watermarked, count)
        select "environmentId", period, kind, watermarked, delta from json_to_recordset(${JSON.stringify(batch)}::json)
          as x("environmentId" integer, period date, kind text, watermarked boolean, delta bigint)
        on conflict (environment_id, ${sql.raw(period)}, kind, watermarked)
        do update set count = ${sql.raw(table)}.count + excluded.count`);
    }
  }
};
