import type { Connector } from '@platform/core';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { loadConnector } from './load.ts';
import { type ConnectorInput, toConnector } from './schemas.ts';

/** `GET .../connectors/{connectorId}`. */
export const getConnector: Service<ConnectorInput, Connector> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const id = input.connectorId.toLowerCase();
  // Kept until a change, as the list is; a connector not found is an error, and errors are not kept.
  return ctx.reads.read(`connector\u0000${environment.id}\u0000${id}`, async () =>
    toConnector(await loadConnector(ctx, environment.id, input.connectorId)),
  );
};
