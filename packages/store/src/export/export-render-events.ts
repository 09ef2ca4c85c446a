import type { RenderEvent } from '@platform/core';
import { sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import type { Db } from '../types.ts';

const INT32_MAX = 2_147_483_647;

type DailyRow = {
  environmentGuid: string;
  day: string;
  kind: string;
  watermarked: boolean;
  count: number | string;
};

/**
 * Render counts as daily roll-ups: one event per environment, UTC day, kind and watermark flag, at midnight UTC.
 * An event's count is an int32; a day above that (no real platform renders two billion times a day in one
 * environment, but the column allows it) is written as several events one second apart, which import sums.
 */
export const exportRenderEvents = async (db: Pick<Db, 'execute'>): Promise<RenderEvent[]> => {
  const rows = await queryRows<DailyRow>(
    db,
    sql`select e.guid::text as "environmentGuid", to_char(d.day, 'YYYY-MM-DD') as day, d.kind, d.watermarked,
               d.count
        from render_daily d join environments e on e.id = d.environment_id
        where d.count > 0
        order by e.id, d.day, d.kind, d.watermarked`,
  );
  const events: RenderEvent[] = [];
  for (const row of rows) {
    let left = Number(row.count);
    for (let second = 0; left > 0; second++) {
      const count = Math.min(left, INT32_MAX);
      const at = new Date(Date.parse(`${row.day}T00:00:00Z`) + second * 1000)
        .toISOString()
        .replace('.000Z', 'Z');
      events.push({
        environmentGuid: row.environmentGuid,
        kind: row.kind,
        watermarked: row.watermarked,
        at,
        count,
      });
      left -= count;
    }
  }
  return events;
};
