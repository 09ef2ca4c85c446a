import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { loadConnector } from './load.ts';

export type ConnectorScriptInput = { environment: string; connectorId: string };
export type ConnectorScript = {
  version: string;
  type: 'media' | 'data';
  options: Record<string, string | number | boolean | null>;
  script: string;
};

/**
 * `GET .../connectors/{connectorId}/script`: what a browser needs to run the connector itself (the console's Try-it,
 * `connector-cli debug`): its module and its published options. Neither holds a secret: credentials live in the
 * authorization configurations, which the proxy injects.
 */
export const getConnectorScript: Service<ConnectorScriptInput, ConnectorScript> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const row = await loadConnector(ctx, environment.id, input.connectorId);
  return {
    version: row.version,
    type: row.type as ConnectorScript['type'],
    options: (row.options ?? {}) as ConnectorScript['options'],
    script: row.script,
  };
};
