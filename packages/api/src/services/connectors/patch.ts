import type { Connector } from '@platform/core';
import { updateConnector } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { connectorNotFound, loadConnector } from './load.ts';
import { type PatchConnectorInput, toConnector } from './schemas.ts';

/** `PATCH .../connectors/{connectorId}` `{enabled?, default?, name?}`: only the fields given change. */
export const patchConnector: Service<PatchConnectorInput, Connector> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const current = await loadConnector(ctx, environment.id, input.connectorId);
  const { enabled, default: isDefault, name } = input.body;
  if (enabled === undefined && isDefault === undefined && name === undefined) return toConnector(current);
  const row = await updateConnector(ctx.database.db, environment.id, current.id, {
    ...(enabled === undefined ? {} : { enabled }),
    ...(isDefault === undefined ? {} : { isDefault }),
    ...(name === undefined ? {} : { name }),
    now: ctx.now,
  });
  if (!row) throw connectorNotFound(input.connectorId);
  ctx.connectorChanged?.(current.id);
  return toConnector(row);
};
