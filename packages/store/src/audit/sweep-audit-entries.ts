import { sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import type { Db } from '../types.ts';

/**
 * The retention sweep: removes the entries older than `retentionDays` before `now`, the one deletion the trail
 * allows. The append-only trigger (migration 0008) lets a DELETE through only for rows older than the cutoff this
 * transaction names in `platform.audit_sweep_before`. Returns how many entries went.
 */
export const sweepAuditEntries = (db: Db, retentionDays: number, now: Date): Promise<number> => {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('platform.audit_sweep_before', ${cutoff.toISOString()}, true)`);
    const [row] = await queryRows<{ n: number | string }>(
      tx,
      sql`with gone as (delete from audit_entries where at < ${cutoff.toISOString()}::timestamptz returning 1)
          select count(*) as n from gone`,
    );
    return Number(row?.n ?? 0);
  });
};
