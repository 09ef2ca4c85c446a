import { eq } from 'drizzle-orm';
import { connectorSharedHeaders } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';

/**
 * Replaces a connector's shared headers (`sealed`: the `{name: value}` JSON already sealed by the SecretBox);
 * `sealed` undefined removes them.
 */
export const replaceSharedHeaders = async (
  db: Db,
  target: { connectorId: string; now: Date },
  sealed: string | undefined,
): Promise<void> => {
  if (sealed === undefined) {
    await db.delete(connectorSharedHeaders).where(eq(connectorSharedHeaders.connectorId, target.connectorId));
  } else {
    await db
      .insert(connectorSharedHeaders)
      .values({ connectorId: target.connectorId, headers: sealed, updatedAt: target.now })
      .onConflictDoUpdate({
        target: connectorSharedHeaders.connectorId,
        set: { headers: sealed, updatedAt: target.now },
      });
  }
};

/** The sealed `{name: value}` JSON of a connector's shared headers, or undefined when none are set. */
export const findSharedHeaders = async (db: Db, connectorId: string): Promise<string | undefined> => {
  const [row] = await db
    .select({ headers: connectorSharedHeaders.headers })
    .from(connectorSharedHeaders)
    .where(eq(connectorSharedHeaders.connectorId, connectorId))
    .limit(1);
  return row?.headers;
};
