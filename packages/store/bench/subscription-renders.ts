import { sql } from 'drizzle-orm';
import { queryRows } from '../src/query-rows.ts';
import type { Db } from '../src/types.ts';

export type Environment = { id: number; name: string; type: 'Production' | 'Sandbox' | 'Development' };
export type Group = {
  date: string;
  totalRenders: number;
  totalWatermarkedRenders: number;
  environments: Entry[];
};
type Entry = { name: string; renders: number; watermarkedRenders: number };

const typeOrder = { Production: 0, Sandbox: 1, Development: 2 } as const;

/** Month index (year * 12 + month) of the UTC month holding `day`. */
const monthIndex = (day: Date) => day.getUTCFullYear() * 12 + day.getUTCMonth();

/**
 * The shape of `GET /subscriptions/{id}/renders?groupBy=year&top=N` (CONTRACT.md §5), computed from either
 * source: the `render_daily` roll-up, or a raw events table (one row per render) for comparison.
 */
export const subscriptionRenders = async (
  db: Db,
  source: 'rollup' | 'raw',
  subscriptionId: number,
  environments: readonly Environment[],
  today: Date,
  top: number,
): Promise<Group[]> => {
  const last = monthIndex(today);
  const first = last - 11;
  const start = new Date(Date.UTC(Math.floor(first / 12), first % 12, 1)).toISOString().slice(0, 10);
  const end = today.toISOString().slice(0, 10);
  const query =
    source === 'rollup'
      ? sql`select environment_id as id,
              (extract(year from day) * 12 + extract(month from day) - 1)::int as m,
              coalesce(sum(count) filter (where not watermarked), 0)::float8 as r,
              coalesce(sum(count) filter (where watermarked), 0)::float8 as w
            from render_daily
            where environment_id in (select id from environments where subscription_id = ${subscriptionId})
              and day between ${start}::date and ${end}::date
            group by 1, 2`
      : sql`select environment_id as id,
              (extract(year from at at time zone 'UTC') * 12 + extract(month from at at time zone 'UTC') - 1)::int as m,
              (count(*) filter (where not watermarked))::float8 as r,
              (count(*) filter (where watermarked))::float8 as w
            from bench_raw_events
            where environment_id in (select id from environments where subscription_id = ${subscriptionId})
              and at >= ${start}::date and at < ${end}::date + 1
            group by 1, 2`;
  const rows = await queryRows<{ id: number; m: number; r: number; w: number }>(db, query);

  const totals = new Map<number, number>();
  const cells = new Map<string, { r: number; w: number }>();
  for (const row of rows) {
    totals.set(row.id, (totals.get(row.id) ?? 0) + row.r);
    cells.set(`${row.id}|${row.m}`, { r: row.r, w: row.w });
  }
  const ranked = [...environments].sort(
    (a, b) =>
      (totals.get(b.id) ?? 0) - (totals.get(a.id) ?? 0) ||
      typeOrder[a.type] - typeOrder[b.type] ||
      a.name.localeCompare(b.name),
  );
  const shown = ranked.slice(0, top);
  const merged = ranked.slice(top);

  const groups: Group[] = [];
  for (let m = first; m <= last; m++) {
    const cell = (id: number) => cells.get(`${id}|${m}`) ?? { r: 0, w: 0 };
    const entries: (Entry & { type: Environment['type'] })[] = shown.map((e) => ({
      name: e.name,
      type: e.type,
      renders: cell(e.id).r,
      watermarkedRenders: cell(e.id).w,
    }));
    entries.sort(
      (a, b) =>
        typeOrder[a.type] - typeOrder[b.type] || b.renders - a.renders || a.name.localeCompare(b.name),
    );
    const list: Entry[] = entries.map(({ type: _type, ...entry }) => entry);
    if (merged.length > 0) {
      list.push({
        name: 'Others',
        renders: merged.reduce((n, e) => n + cell(e.id).r, 0),
        watermarkedRenders: merged.reduce((n, e) => n + cell(e.id).w, 0),
      });
    }
    groups.push({
      date: `${new Date(Date.UTC(Math.floor(m / 12), m % 12, 1)).toISOString().slice(0, 10)}T00:00:00Z`,
      totalRenders: list.reduce((n, e) => n + e.renders, 0),
      totalWatermarkedRenders: list.reduce((n, e) => n + e.watermarkedRenders, 0),
      environments: list,
    });
  }
  return groups;
};
