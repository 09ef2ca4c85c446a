import type { Connector } from '@platform/core';
import { listConnectors as listConnectorRows } from '@platform/store';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { type EnvironmentInput, toConnector } from './schemas.ts';

/** `GET .../connectors` (also at the experimental path of docs/environment-api.md): the environment's connectors by name. */
export const listConnectors: Service<EnvironmentInput, { data: Connector[] }> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  // Kept until a change of the environment's content (from any replica): the list is read far more than written.
  return ctx.reads.read(`connectors\u0000${environment.id}`, async () => {
    const rows = await listConnectorRows(ctx.database.db, environment.id);
    return { data: rows.map(toConnector) };
  });
};
