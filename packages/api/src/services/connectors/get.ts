import type { Connector } from '@platform/core';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { loadConnector } from './load.ts';
import { type ConnectorInput, toConnector } from './schemas.ts';

/** `GET .../connectors/{connectorId}`. */
export const getConnector: Service<ConnectorInput, Connector> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  return toConnector(await loadConnector(ctx, environment.id, input.connectorId));
};
