import { and, eq, sql } from 'drizzle-orm';
import { queryRows } from '../../query-rows.ts';
import { connectorAuth } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';
import { withinTransaction } from '../../within-transaction.ts';

export type ConnectorAuthRow = typeof connectorAuth.$inferSelect;

export type ConnectorAuthWrite = {
  id: string;
  connectorId: string;
  usage: string;
  type: string;
  name: string;
  /** The type's data without its secret fields. */
  publicData: Record<string, unknown>;
  /** The secret fields as JSON, already sealed by the SecretBox: this module never sees a secret in clear. */
  secretData: string;
  now: Date;
};

/**
 * Sets (or replaces: docs/connector-auth.md rules 2 and 3) the authorization of one usage, in one transaction: a new
 * revision from `connector_auth_revision`, so nothing derived from the earlier configuration matches again. The usage's
 * cached tokens stay (rule 4: only deleting the connector resets them).
 */
export const setConnectorAuth = (db: Db, write: ConnectorAuthWrite): Promise<ConnectorAuthRow> =>
  withinTransaction(db, async (tx) => {
    const [next] = await queryRows<{ revision: string | number }>(
      tx,
      sql`select nextval('connector_auth_revision') as revision`,
    );
    const revision = Number(next?.revision);
    await tx
      .delete(connectorAuth)
      .where(and(eq(connectorAuth.connectorId, write.connectorId), eq(connectorAuth.usage, write.usage)));
    const [row] = await tx
      .insert(connectorAuth)
      .values({
        id: write.id,
        connectorId: write.connectorId,
        usage: write.usage,
        type: write.type,
        name: write.name,
        revision,
        publicData: write.publicData,
        secretData: write.secretData,
        updatedAt: write.now,
      })
      .returning();
    return row!;
  });

/** Usage, type, name and time of each authorization of a connector: the columns that never hold a secret. */
export const listConnectorAuth = (db: Db, connectorId: string) =>
  db
    .select({
      usage: connectorAuth.usage,
      type: connectorAuth.type,
      name: connectorAuth.name,
      updatedAt: connectorAuth.updatedAt,
    })
    .from(connectorAuth)
    .where(eq(connectorAuth.connectorId, connectorId))
    .orderBy(connectorAuth.usage);

/**
 * Removes the authorization of one usage; its cached tokens stay, as when it is replaced (rule 4). Returns the type
 * removed, or undefined when the usage had none.
 */
export const deleteConnectorAuth = async (
  db: Db,
  target: { connectorId: string; usage: string },
): Promise<string | undefined> => {
  const [removed] = await db
    .delete(connectorAuth)
    .where(and(eq(connectorAuth.connectorId, target.connectorId), eq(connectorAuth.usage, target.usage)))
    .returning({ type: connectorAuth.type });
  return removed?.type;
};

/** The authorization of one usage as stored (its secret fields sealed), for the audit trail's "from". */
export const findConnectorAuth = async (
  db: Db,
  connectorId: string,
  usage: string,
): Promise<ConnectorAuthRow | undefined> => {
  const [row] = await db
    .select()
    .from(connectorAuth)
    .where(and(eq(connectorAuth.connectorId, connectorId), eq(connectorAuth.usage, usage)))
    .limit(1);
  return row;
};
