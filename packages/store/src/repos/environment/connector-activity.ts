import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { type ActivityFetch, connectorActivity } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';

export type { ActivityFetch };

/** Kept per connector: the newest this many entries, none older than `ACTIVITY_MAX_AGE_MS`. */
export const ACTIVITY_MAX_ENTRIES = 1000;
export const ACTIVITY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export type ActivityEntry = {
  connectorId: string;
  at: Date;
  method: string;
  usage: string;
  status: number;
  code: string | null;
  error: string | null;
  durationMs: number;
  fetches: ActivityFetch[];
};

/** Records one invocation and drops what falls out of the connector's bounds, in one statement each. */
export const recordConnectorActivity = async (db: Db, entry: ActivityEntry): Promise<void> => {
  await db.insert(connectorActivity).values(entry);
  const oldestKept = db
    .select({ id: connectorActivity.id })
    .from(connectorActivity)
    .where(eq(connectorActivity.connectorId, entry.connectorId))
    .orderBy(desc(connectorActivity.id))
    .offset(ACTIVITY_MAX_ENTRIES - 1)
    .limit(1);
  await db
    .delete(connectorActivity)
    .where(
      and(
        eq(connectorActivity.connectorId, entry.connectorId),
        or(
          lt(connectorActivity.at, new Date(entry.at.getTime() - ACTIVITY_MAX_AGE_MS)),
          lt(connectorActivity.id, sql`(${oldestKept})`),
        ),
      ),
    );
};

/** The newest entries first. */
export const listConnectorActivity = (db: Db, connectorId: string, limit: number, since: Date) =>
  db
    .select()
    .from(connectorActivity)
    .where(and(eq(connectorActivity.connectorId, connectorId), sql`${connectorActivity.at} >= ${since}`))
    .orderBy(desc(connectorActivity.id))
    .limit(limit);
