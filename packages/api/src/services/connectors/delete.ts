import { deleteConnector as deleteConnectorRow, findConnector } from '@platform/store';
import { fieldChanges } from '../audit/changes.ts';
import { connectorFields } from '../audit/connector-fields.ts';
import { audited } from '../audit/record.ts';
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
  const connectorId = input.connectorId.toLowerCase();
  await audited(
    ctx,
    async (tx) => {
      const before = await findConnector(tx, environment.id, connectorId);
      const deleted = before !== undefined && (await deleteConnectorRow(tx, environment.id, connectorId));
      if (!before || !deleted) throw connectorNotFound(input.connectorId);
      return before;
    },
    (before) => ({
      action: 'connector.delete',
      target: { type: 'connector', id: before.id, environment },
      changes: fieldChanges(connectorFields(ctx, before), undefined, ['name', 'version', 'type']),
    }),
  );
  ctx.connectorDeleted?.(input.connectorId);
  ctx.log.info({ environmentId: environment.guid, connectorId: input.connectorId }, 'connector deleted');
};
