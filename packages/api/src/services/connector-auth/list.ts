import type { AuthConfigurationSummary, AuthType, AuthUsage } from '@platform/core';
import { listConnectorAuth as listConnectorAuthRows } from '@platform/store';
import { loadConnector } from '../connectors/load.ts';
import type { ConnectorInput } from '../connectors/schemas.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';

/** `GET .../connectors/{connectorId}/auth`: what each usage is set to; only columns that never hold a secret are read. */
export const listConnectorAuth: Service<ConnectorInput, AuthConfigurationSummary[]> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const connector = await loadConnector(ctx, environment.id, input.connectorId);
  const rows = await listConnectorAuthRows(ctx.database.db, connector.id);
  return rows.map((row) => ({
    usage: row.usage as AuthUsage,
    type: row.type as AuthType,
    name: row.name,
    updatedAt: row.updatedAt.toISOString(),
  }));
};
