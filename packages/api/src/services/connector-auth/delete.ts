import { deleteConnectorAuth as deleteConnectorAuthRow, findConnectorAuth } from '@platform/store';
import { fieldChanges, fingerprintedSealed } from '../audit/changes.ts';
import { audited } from '../audit/record.ts';
import { loadConnector } from '../connectors/load.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import type { DeleteConnectorAuthInput } from './schemas.ts';

/**
 * `DELETE .../connectors/{connectorId}/auth?authUsage=` → 204, also when the usage had no authorization
 * (idempotent, as core's `deleteAuth`): the outcome the caller wants holds either way. Drops the usage's cached
 * tokens; audited when something was removed.
 */
export const deleteConnectorAuth: Service<DeleteConnectorAuthInput, void> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const connector = await loadConnector(ctx, environment.id, input.connectorId);
  const { removed } = await audited(
    ctx,
    async (tx) => {
      const before = await findConnectorAuth(tx, connector.id, input.authUsage);
      const removed = await deleteConnectorAuthRow(tx, {
        connectorId: connector.id,
        usage: input.authUsage,
      });
      return { removed, before };
    },
    ({ before }) => ({
      action: 'connector.auth.delete',
      target: { type: 'connectorAuthorization', id: connector.id, environment },
      changes: before
        ? {
            ...fieldChanges({ usage: before.usage, type: before.type, name: before.name }, undefined),
            ...fieldChanges(before.publicData, undefined),
            ...fieldChanges(fingerprintedSealed(ctx, before.secretData), undefined),
          }
        : {},
    }),
  );
  if (removed) {
    ctx.connectorChanged?.(connector.id);
    ctx.log.info(
      { environmentId: environment.guid, connectorId: connector.id, usage: input.authUsage, type: removed },
      'connector authorization deleted',
    );
  }
};
