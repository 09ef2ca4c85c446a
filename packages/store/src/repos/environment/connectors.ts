import { and, asc, eq, sql } from 'drizzle-orm';
import { connectorAuth, connectors } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';

export type ConnectorRow = typeof connectors.$inferSelect;

/** What publishing (and republishing) a connector stores; `enabled`, `isDefault` and `createdAt` survive a republish. */
export type ConnectorDefinition = Pick<
  ConnectorRow,
  | 'name'
  | 'description'
  | 'version'
  | 'type'
  | 'iconUrl'
  | 'options'
  | 'script'
  | 'apiVersion'
  | 'allowedDomains'
  | 'forwardedHeaders'
  | 'supportedAuth'
>;

export const listConnectors = (db: Db, environmentId: number): Promise<ConnectorRow[]> =>
  db
    .select()
    .from(connectors)
    .where(eq(connectors.environmentId, environmentId))
    .orderBy(sql`${connectors.name} collate "C"`, asc(connectors.id));

/** A connector of this environment; one of another environment is not found. */
export const findConnector = async (
  db: Db,
  environmentId: number,
  connectorId: string,
): Promise<ConnectorRow | undefined> => {
  const [row] = await db
    .select()
    .from(connectors)
    .where(and(eq(connectors.environmentId, environmentId), eq(connectors.id, connectorId)))
    .limit(1);
  return row;
};

export const insertConnector = async (
  db: Db,
  values: ConnectorDefinition & { id: string; environmentId: number; enabled: boolean; now: Date },
): Promise<ConnectorRow> => {
  const { now, ...rest } = values;
  const [row] = await db
    .insert(connectors)
    .values({ ...rest, isDefault: false, createdAt: now, updatedAt: now })
    .returning();
  return row!;
};

/** Replaces the definition of a published connector; undefined when it is not in this environment. */
export const updateConnector = async (
  db: Db,
  environmentId: number,
  connectorId: string,
  changes: Partial<ConnectorDefinition & Pick<ConnectorRow, 'enabled' | 'isDefault'>> & { now: Date },
): Promise<ConnectorRow | undefined> => {
  const { now, ...rest } = changes;
  const [row] = await db
    .update(connectors)
    .set({ ...rest, updatedAt: now })
    .where(and(eq(connectors.environmentId, environmentId), eq(connectors.id, connectorId)))
    .returning();
  return row;
};

/** Usage and type of each authorization configured on a connector. */
export const connectorAuthTypes = (db: Db, connectorId: string) =>
  db
    .select({ usage: connectorAuth.usage, type: connectorAuth.type })
    .from(connectorAuth)
    .where(eq(connectorAuth.connectorId, connectorId));

/**
 * Deletes a connector and, by the foreign keys' cascade, its authorizations, shared headers, cached tokens and
 * pending logins. False when it was not in this environment.
 */
export const deleteConnector = async (
  db: Db,
  environmentId: number,
  connectorId: string,
): Promise<boolean> => {
  const deleted = await db
    .delete(connectors)
    .where(and(eq(connectors.environmentId, environmentId), eq(connectors.id, connectorId)))
    .returning({ id: connectors.id });
  return deleted.length > 0;
};
