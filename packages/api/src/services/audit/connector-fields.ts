import type { ConnectorRow } from '@platform/store';
import type { ServiceContext } from '../context.ts';

/**
 * What the trail shows of a connector: its definition and switches, the script as a fingerprint (it can be large,
 * and "a new script" is what a reader needs to see).
 */
export const connectorFields = (ctx: ServiceContext, row: ConnectorRow): Record<string, unknown> => ({
  name: row.name,
  description: row.description,
  version: row.version,
  type: row.type,
  iconUrl: row.iconUrl,
  options: row.options,
  script: ctx.fingerprint(row.script),
  apiVersion: row.apiVersion,
  allowedDomains: row.allowedDomains,
  forwardedHeaders: row.forwardedHeaders,
  supportedAuth: row.supportedAuth,
  enabled: row.enabled,
  default: row.isDefault,
});
