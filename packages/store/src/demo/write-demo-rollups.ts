import type { RenderEvent } from '@platform/core';
import { sql } from 'drizzle-orm';
import { chunks } from '../import/upsert.ts';
import { EVENTS_PER_STATEMENT, type Progress, type Tx } from '../import/write-data-file.ts';

type RollupRow = {
  environment_id: number;
  period: string;
  kind: string;
  watermarked: boolean;
  count: number;
};

/**
 * The demo set's render usage, written straight into the roll-ups the reads use (`render_daily`,
 * `render_monthly`), summed here as the import's statement sums them (UTC day and month). The import also
 * records each event's identity so that importing it again adds nothing; demo rows never meet a second import
 * (the first real one replaces the demo set whole), so they skip that table and half of the work.
 */
export const writeDemoRollups = async (
  tx: Tx,
  events: readonly RenderEvent[],
  environmentIds: ReadonlyMap<string, number>,
  progress: Progress,
): Promise<void> => {
  const daily = new Map<string, RollupRow>();
  const monthly = new Map<string, RollupRow>();
  const add = (rows: Map<string, RollupRow>, row: RollupRow) => {
    const key = `${row.environment_id}|${row.period}|${row.kind}|${row.watermarked}`;
    const existing = rows.get(key);
    if (existing) existing.count += row.count;
    else rows.set(key, row);
  };
  for (const event of events) {
    const environmentId = environmentIds.get(event.environmentGuid.toLowerCase())!;
    const day = new Date(event.at).toISOString().slice(0, 10);
    const base = { environment_id: environmentId, kind: event.kind, watermarked: event.watermarked };
    add(daily, { ...base, period: day, count: event.count });
    add(monthly, { ...base, period: `${day.slice(0, 7)}-01`, count: event.count });
  }
  for (const batch of chunks(
    [...daily.values()].filter((r) => r.count !== 0),
    EVENTS_PER_STATEMENT,
  )) {
    await tx.execute(sql`
      insert into render_daily (environment_id, day, kind, watermarked, count)
      select environment_id, period, kind, watermarked, count from json_to_recordset(${JSON.stringify(batch)}::json)
        as x(environment_id integer, period date, kind text, watermarked boolean, count integer)`);
  }
  for (const batch of chunks(
    [...monthly.values()].filter((r) => r.count !== 0),
    EVENTS_PER_STATEMENT,
  )) {
    await tx.execute(sql`
      insert into render_monthly (environment_id, month, kind, watermarked, count)
      select environment_id, period, kind, watermarked, count from json_to_recordset(${JSON.stringify(batch)}::json)
        as x(environment_id integer, period date, kind text, watermarked boolean, count integer)`);
  }
  progress(events.length);
};
