import type { Connector } from '@platform/core';
import { updateConnector } from '@platform/store';
import { fieldChanges } from '../audit/changes.ts';
import { connectorFields } from '../audit/connector-fields.ts';
import { audited } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { connectorNotFound, loadConnector } from './load.ts';
import { type PatchConnectorInput, toConnector } from './schemas.ts';

/** `PATCH .../connectors/{connectorId}` `{enabled?, default?, name?}`: only the fields given change. */
export const patchConnector: Service<PatchConnectorInput, Connector> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const current = await loadConnector(ctx, environment.id, input.connectorId);
  const { enabled, default: isDefault, name } = input.body;
  const given = [
    ...(enabled === undefined ? [] : ['enabled']),
    ...(isDefault === undefined ? [] : ['default']),
    ...(name === undefined ? [] : ['name']),
  ];
  const row = await audited(
    ctx,
    async (tx) => {
      // A PATCH without fields changes nothing, but is an accepted write: it is recorded too.
      if (given.length === 0) return current;
      const updated = await updateConnector(tx, environment.id, current.id, {
        ...(enabled === undefined ? {} : { enabled }),
        ...(isDefault === undefined ? {} : { isDefault }),
        ...(name === undefined ? {} : { name }),
        now: ctx.now,
      });
      if (!updated) throw connectorNotFound(input.connectorId);
      return updated;
    },
    (updated) => ({
      action: 'connector.update',
      target: { type: 'connector', id: updated.id, environment },
      changes: fieldChanges(connectorFields(ctx, current), connectorFields(ctx, updated), given),
    }),
  );
  ctx.connectorChanged?.(current.id);
  return toConnector(row);
};
