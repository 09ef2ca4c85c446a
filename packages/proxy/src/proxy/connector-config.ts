import { type AuthUsage, ForbiddenError, NotFoundError } from '@platform/core';
import { type Database, type SecretBox, schema } from '@platform/store';
import { and, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { type AuthConfig, decodeAuthConfig, StoredConfigurationError } from '../auth-config.ts';

/** What the proxy needs of a connector for one request; secrets opened. */
export type ConnectorConfig = {
  id: string;
  allowedDomains: readonly string[];
  forwardedHeaders: boolean;
  sharedHeaders: Readonly<Record<string, string>>;
  auth: AuthConfig | undefined;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A connector id that is not a uuid names nothing (and must not reach a uuid column). */
export const isUuid = (value: string): boolean => uuidPattern.test(value);

const notFound = (connectorId: string) =>
  new NotFoundError(`Connector ${connectorId} was not found in this environment.`);

export type ConnectorConfigLoader = {
  load(environmentId: number, connectorId: string, usage: AuthUsage): Promise<ConnectorConfig>;
  loadAuth(connectorId: string, usage: AuthUsage): Promise<AuthConfig | undefined>;
};

/**
 * Reads the connector, the usage's authorization and the shared headers in one round trip.
 * `cacheMs` > 0 keeps the decoded result that long, so a hot connector does not cost a query and a
 * decryption per proxied request; a configuration change then reaches every replica within `cacheMs`.
 */
export const createConnectorConfigLoader = (
  database: Database,
  secrets: SecretBox,
  cacheMs: number,
): ConnectorConfigLoader => {
  const cache = cacheMs > 0 ? new LRUCache<string, ConnectorConfig>({ max: 5_000, ttl: cacheMs }) : undefined;

  const query = async (
    environmentId: number,
    connectorId: string,
    usage: AuthUsage,
  ): Promise<ConnectorConfig> => {
    const { connectors, connectorAuth, connectorSharedHeaders } = schema;
    const rows = await database.db
      .select({
        id: connectors.id,
        enabled: connectors.enabled,
        allowedDomains: connectors.allowedDomains,
        forwardedHeaders: connectors.forwardedHeaders,
        sharedHeaders: connectorSharedHeaders.headers,
        authType: connectorAuth.type,
        authRevision: connectorAuth.revision,
        authPublic: connectorAuth.publicData,
        authSecret: connectorAuth.secretData,
      })
      .from(connectors)
      .leftJoin(
        connectorAuth,
        and(eq(connectorAuth.connectorId, connectors.id), eq(connectorAuth.usage, usage)),
      )
      .leftJoin(connectorSharedHeaders, eq(connectorSharedHeaders.connectorId, connectors.id))
      .where(and(eq(connectors.id, connectorId), eq(connectors.environmentId, environmentId)))
      .limit(1);
    const row = rows[0];
    if (!row) throw notFound(connectorId);
    // Disabled is 403, not 404: the caller can already see the connector in the environment's list.
    if (!row.enabled)
      throw new ForbiddenError(`Connector ${connectorId} is disabled; enable it before using it.`);
    let sharedHeaders: Record<string, string> = {};
    if (row.sharedHeaders !== null) {
      try {
        sharedHeaders = JSON.parse(secrets.open(row.sharedHeaders)) as Record<string, string>;
      } catch {
        throw new StoredConfigurationError('the stored shared headers could not be opened');
      }
    }
    const auth =
      row.authType !== null && row.authRevision !== null && row.authPublic !== null && row.authSecret !== null
        ? decodeAuthConfig(
            {
              connectorId,
              usage,
              type: row.authType,
              revision: row.authRevision,
              publicData: row.authPublic,
              secretData: row.authSecret,
            },
            secrets,
          )
        : undefined;
    return {
      id: connectorId,
      allowedDomains: row.allowedDomains,
      forwardedHeaders: row.forwardedHeaders,
      sharedHeaders,
      auth,
    };
  };

  return {
    async load(environmentId, connectorId, usage) {
      if (!uuidPattern.test(connectorId)) throw notFound(connectorId);
      const key = `${environmentId}:${connectorId.toLowerCase()}:${usage}`;
      const cached = cache?.get(key);
      if (cached) return cached;
      const config = await query(environmentId, connectorId.toLowerCase(), usage);
      cache?.set(key, config);
      return config;
    },
    async loadAuth(connectorId, usage) {
      if (!uuidPattern.test(connectorId)) return undefined;
      const { connectorAuth } = schema;
      const rows = await database.db
        .select()
        .from(connectorAuth)
        .where(and(eq(connectorAuth.connectorId, connectorId.toLowerCase()), eq(connectorAuth.usage, usage)))
        .limit(1);
      const row = rows[0];
      return row ? decodeAuthConfig(row, secrets) : undefined;
    },
  };
};
