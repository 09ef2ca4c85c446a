import { type AuthUsage, ForbiddenError, NotFoundError } from '@platform/core';
import { type Database, type SecretBox, schema } from '@platform/store';
import { and, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { type AuthConfig, decodeAuthConfig, StoredConfigurationError } from '../auth-config.ts';
import { type ConnectorConfigRow, prepareConnectorConfigQuery } from './connector-config-query.ts';

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
  /** `fresh`: read the store now, past the cache (an exchange that must use what another replica just wrote). */
  load(
    environmentId: number,
    connectorId: string,
    usage: AuthUsage,
    options?: { fresh?: boolean },
  ): Promise<ConnectorConfig>;
  /** What `load` would answer from its cache, without waiting; undefined when it would read the store. */
  cached(environmentId: number, connectorId: string, usage: AuthUsage): ConnectorConfig | undefined;
  loadAuth(connectorId: string, usage: AuthUsage): Promise<AuthConfig | undefined>;
  /** Forgets what is cached of a connector (both usages): the next request reads the store. */
  invalidate(connectorId: string): void;
  /** Forgets every connector's configuration: something changed, and the store does not say what. */
  invalidateAll(): void;
};

/** Even with every change notification delivered, no configuration is older than this: a bound should one be missed. */
const UNTIL_CHANGE_MAX_MS = 5 * 60_000;

/** The decoded secret parts of a row, with the sealed strings they came from (sealing uses a random IV). */
type Decoded = {
  sharedSealed: string | null;
  sharedHeaders: Record<string, string>;
  authSealed: string | null;
  authRevision: number | null;
  auth: AuthConfig | undefined;
};

const openSharedHeaders = (sealed: string | null, secrets: SecretBox): Record<string, string> => {
  if (sealed === null) return {};
  try {
    return JSON.parse(secrets.open(sealed)) as Record<string, string>;
  } catch {
    throw new StoredConfigurationError('the stored shared headers could not be opened');
  }
};

const decodeAuth = (row: ConnectorConfigRow, connectorId: string, usage: AuthUsage, secrets: SecretBox) =>
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

/** The cache key of a connector's configuration for one usage (`id` lower case). */
const keyOf = (id: string, environmentId: number, usage: AuthUsage) => `${id}:${environmentId}:${usage}`;

/**
 * Reads the connector, the usage's authorization and the shared headers in one prepared query, and keeps
 * the result `cacheMs`; a configuration change then reaches other replicas within `cacheMs`, and this
 * process at once when its writers call `invalidate`. While `watched` says the store's change notifications
 * reach this process (they call `invalidateAll`), the result is kept until a change instead (at most five
 * minutes): a warm request then reads nothing. Even with `cacheMs` 0 and no watch (one query per request) the
 * secrets are only opened again when their sealed form changed: every auth change takes a new revision and
 * every seal a new IV, so an unchanged sealed string is an unchanged value.
 */
export const createConnectorConfigLoader = (
  database: Database,
  secrets: SecretBox,
  cacheMs: number,
  watched: () => boolean = () => false,
): ConnectorConfigLoader => {
  const cache = new LRUCache<string, ConnectorConfig>({ max: 5_000, ttl: Math.max(cacheMs, 1) });
  const keepFor = () => (watched() ? UNTIL_CHANGE_MAX_MS : cacheMs);
  const decoded = new LRUCache<string, Decoded>({ max: 5_000 });
  // With a cache, concurrent misses of one key share one query (else every expiry costs a burst of them).
  const pending = new Map<string, Promise<ConnectorConfig>>();
  // Bumped by invalidate: a query that started before it must not cache what it read.
  let generation = 0;
  let query: ReturnType<typeof prepareConnectorConfigQuery> | undefined;

  const read = async (key: string, environmentId: number, connectorId: string, usage: AuthUsage) => {
    query ??= prepareConnectorConfigQuery(database);
    const row = await query(environmentId, connectorId, usage);
    if (!row) {
      decoded.delete(key);
      throw notFound(connectorId);
    }
    // Disabled is 403, not 404: the caller can already see the connector in the environment's list.
    if (!row.enabled)
      throw new ForbiddenError(`Connector ${connectorId} is disabled; enable it before using it.`);
    let parts = decoded.get(key);
    if (
      !parts ||
      parts.sharedSealed !== row.sharedHeaders ||
      parts.authSealed !== row.authSecret ||
      parts.authRevision !== row.authRevision
    ) {
      parts = {
        sharedSealed: row.sharedHeaders,
        sharedHeaders: openSharedHeaders(row.sharedHeaders, secrets),
        authSealed: row.authSecret,
        authRevision: row.authRevision,
        auth: decodeAuth(row, connectorId, usage, secrets),
      };
      decoded.set(key, parts);
    }
    return {
      id: connectorId,
      allowedDomains: row.allowedDomains,
      forwardedHeaders: row.forwardedHeaders,
      sharedHeaders: parts.sharedHeaders,
      auth: parts.auth,
    };
  };

  return {
    cached(environmentId, connectorId, usage) {
      // An id that is not a uuid is never a key: `load` answers it (404).
      return cache.get(keyOf(connectorId.toLowerCase(), environmentId, usage));
    },
    load(environmentId, connectorId, usage, options) {
      if (!uuidPattern.test(connectorId)) return Promise.reject(notFound(connectorId));
      const id = connectorId.toLowerCase();
      const key = keyOf(id, environmentId, usage);
      const cached = options?.fresh ? undefined : cache.get(key);
      if (cached) return Promise.resolve(cached);
      // Without a cache every request reads for itself: one that arrives after a change must see it.
      if (keepFor() <= 0 || options?.fresh) return read(key, environmentId, id, usage);
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      const started = generation;
      const loading = read(key, environmentId, id, usage).then(
        (config) => {
          if (pending.get(key) === loading) pending.delete(key);
          const ttl = keepFor();
          if (started === generation && ttl > 0) cache.set(key, config, { ttl });
          return config;
        },
        (error: unknown) => {
          if (pending.get(key) === loading) pending.delete(key);
          throw error;
        },
      );
      pending.set(key, loading);
      return loading;
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
    invalidate(connectorId) {
      generation++;
      const prefix = `${connectorId.toLowerCase()}:`;
      for (const map of [cache, decoded, pending] as const) {
        for (const key of [...map.keys()]) if (key.startsWith(prefix)) map.delete(key);
      }
    },
    invalidateAll() {
      // The decoded secrets stay: they are checked against the sealed strings the next query reads.
      generation++;
      cache.clear();
      pending.clear();
    },
  };
};
