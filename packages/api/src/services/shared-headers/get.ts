import { findSharedHeaders } from '@platform/store';
import { loadConnector } from '../connectors/load.ts';
import type { ConnectorInput } from '../connectors/schemas.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import type { SharedHeaderNames } from './schemas.ts';

/** `GET .../connectors/{connectorId}/shared-headers` (an addition): the names of the shared headers, never their values. */
export const getSharedHeaders: Service<ConnectorInput, SharedHeaderNames> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const connector = await loadConnector(ctx, environment.id, input.connectorId);
  const sealed = await findSharedHeaders(ctx.database.db, connector.id);
  if (sealed === undefined) return { names: [] };
  const headers = JSON.parse(ctx.secrets.open(sealed)) as Record<string, string>;
  return { names: Object.keys(headers).sort() };
};
