import { sql } from 'drizzle-orm';
import { queryRows } from '../src/query-rows.ts';
import type { Db } from '../src/types.ts';

const TABLES = [
  'users',
  'subscriptions',
  'environments',
  'memberships',
  'environment_roles',
  'external_idp_domains',
  'subject_types',
  'imported_render_events',
  'render_daily',
] as const;

/** Row counts of the tables an import writes, plus the total of render_daily. */
export const tableCounts = async (db: Db): Promise<Record<string, number>> => {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${table}`));
    out[table] = row?.n ?? 0;
  }
  const [sum] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce(sum(count), 0)::int as n from render_daily`,
  );
  out.renders = sum?.n ?? 0;
  return out;
};
