import { deleteConnector as deleteConnectorRow } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { connectorNotFound } from './load.ts';
import type { ConnectorInput } from './schemas.ts';

/**
 * `DELETE .../connectors/{connectorId}` → 204: the connector with its authorizations, shared headers and every
 * cached token (docs/connector-auth.md rule 4: the only way to reset cached tokens); audited.
 */
export const deleteConnector: Service<ConnectorInput, void> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const deleted = await deleteConnectorRow(ctx.database.db, environment.id, input.connectorId.toLowerCase(), {
    actor: ctx.caller.userId,
    at: ctx.now,
  });
  if (!deleted) throw connectorNotFound(input.connectorId);
  ctx.connectorDeleted?.(input.connectorId);
  ctx.log.info({ environmentId: environment.guid, connectorId: input.connectorId }, 'connector deleted');
};
