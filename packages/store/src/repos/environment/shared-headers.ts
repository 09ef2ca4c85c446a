import { eq } from 'drizzle-orm';
import { connectorSharedHeaders } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';
import { withinTransaction } from '../../within-transaction.ts';
import { writeAuthAudit } from './auth-audit.ts';

/**
 * Replaces a connector's shared headers (`sealed`: the `{name: value}` JSON already sealed by the SecretBox);
 * `sealed` undefined removes them. Audited in the same transaction.
 */
export const replaceSharedHeaders = (
  db: Db,
  target: { environmentId: number; connectorId: string; actor: string; now: Date },
  sealed: string | undefined,
): Promise<void> =>
  withinTransaction(db, async (tx) => {
    if (sealed === undefined) {
      await tx
        .delete(connectorSharedHeaders)
        .where(eq(connectorSharedHeaders.connectorId, target.connectorId));
    } else {
      await tx
        .insert(connectorSharedHeaders)
        .values({ connectorId: target.connectorId, headers: sealed, updatedAt: target.now })
        .onConflictDoUpdate({
          target: connectorSharedHeaders.connectorId,
          set: { headers: sealed, updatedAt: target.now },
        });
    }
    await writeAuthAudit(tx, {
      at: target.now,
      actor: target.actor,
      environmentId: target.environmentId,
      connectorId: target.connectorId,
      action: 'sharedHeaders.set',
    });
  });

/** The sealed `{name: value}` JSON of a connector's shared headers, or undefined when none are set. */
export const findSharedHeaders = async (db: Db, connectorId: string): Promise<string | undefined> => {
  const [row] = await db
    .select({ headers: connectorSharedHeaders.headers })
    .from(connectorSharedHeaders)
    .where(eq(connectorSharedHeaders.connectorId, connectorId))
    .limit(1);
  return row?.headers;
};
