import { NotFoundError } from '@platform/core';
import { type ConnectorRow, findConnector } from '@platform/store';
import type { ServiceContext } from '../context.ts';

export const connectorNotFound = (connectorId: string) =>
  new NotFoundError(`Connector '${connectorId}' was not found in this environment.`);

/** A connector of the environment, or 404 (a connector of another environment is not found either). */
export const loadConnector = async (
  ctx: ServiceContext,
  environmentId: number,
  connectorId: string,
): Promise<ConnectorRow> => {
  const row = await findConnector(ctx.database.db, environmentId, connectorId.toLowerCase());
  if (!row) throw connectorNotFound(connectorId);
  return row;
};
