import { randomUUID } from 'node:crypto';
import { type Database, queryRows } from '@platform/store';
import { sql } from 'drizzle-orm';

/** How often each replica says it is alive, and how long a silent one still counts. */
const HEARTBEAT_MS = 2_000;
const LIVE_MS = 3 * HEARTBEAT_MS;
/** Rows of replicas gone this long are removed by whoever beats next. */
const FORGET_MS = 60_000;

/** The number of server replicas sharing this database, for the platform-wide rate limit. */
export type ReplicaCount = {
  current(): number;
  stop(): Promise<void>;
};

/**
 * On PostgreSQL every replica refreshes its row of `platform_replicas` every 2 s and counts the rows refreshed in the
 * last 6 s: a new replica is counted everywhere within 2 s, a vanished one stops counting within 6 s. Nothing is
 * asked per request. The embedded database is one process by construction: always 1, nothing written. While the
 * database does not answer, the last count stays.
 */
export const watchReplicaCount = async (database: Database): Promise<ReplicaCount> => {
  if (database.kind === 'pglite') return { current: () => 1, stop: async () => {} };
  const id = randomUUID();
  let count = 1;
  const beat = async () => {
    const rows = await queryRows<{ live: number | string }>(
      database.db,
      sql`with beat as (
            insert into platform_replicas (id, seen_at) values (${id}, now())
            on conflict (id) do update set seen_at = now()
          )
          select count(*) + 1 as live from platform_replicas
          where id <> ${id} and seen_at > now() - ${`${LIVE_MS} milliseconds`}::interval`,
    );
    count = Math.max(1, Number(rows[0]?.live ?? 1));
    await database.db.execute(
      sql`delete from platform_replicas where seen_at < now() - ${`${FORGET_MS} milliseconds`}::interval`,
    );
  };
  await beat();
  const timer = setInterval(() => beat().catch(() => {}), HEARTBEAT_MS);
  timer.unref();
  return {
    current: () => count,
    async stop() {
      clearInterval(timer);
      // Leaving at once, so the others stop counting this replica now rather than in 6 s.
      await database.db.execute(sql`delete from platform_replicas where id = ${id}`).catch(() => {});
    },
  };
};
