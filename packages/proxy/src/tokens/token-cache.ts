import type { Database } from '@platform/store';
import { LRUCache } from 'lru-cache';
import type { Configuration } from 'openid-client';
import type { Logger } from 'pino';
import type { OAuthConfig } from '../auth-config.ts';
import type { ProxyMetrics } from '../metrics.ts';
import { type AddressGuard, assertResolvedAddressAllowed } from '../net/address-guard.ts';
import { AuthorizationRequiredError } from './authorization-required-error.ts';
import { tokenEndpointOf } from './oauth-configuration.ts';
import { runGrant, runRefresh } from './run-grant.ts';
import type { StoredToken, TokenKey, TokenStore } from './token-store.ts';

/**
 * A PostgreSQL advisory lock holds a pool connection while the work inside needs another one: with as many
 * lock holders as pool connections, nobody could query any more. Token fetches for distinct keys are
 * therefore limited well below the pool size (default 10).
 */
const maxConcurrentLockHolders = 4;

const createLimiter = (slots: number) => {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
};

/** Authorization code tokens stay in memory at most this long, so a logout reaches every replica quickly. */
const userTokenMemoryMs = 30_000;

/** Renew a safety margin before expiry: 10 % of the lifetime, at most a minute. */
export const safetyMarginMs = (token: StoredToken): number =>
  Math.min(60_000, Math.max(0, (token.expiresAt - token.obtainedAt) * 0.1));

export const usableUntil = (token: StoredToken): number => token.expiresAt - safetyMarginMs(token);

export const cacheKeyOf = (key: TokenKey): string =>
  `${key.connectorId}:${key.usage}:${key.revision}:${key.userId}`;

type FetchContext = { auth: OAuthConfig; key: TokenKey; rejected: string | undefined };

export type TokenCacheDeps = {
  database: Database;
  store: TokenStore;
  metrics: ProxyMetrics;
  log: Logger;
  guard: AddressGuard;
  configurationOf(auth: OAuthConfig): Configuration;
};

export type TokenCache = {
  get(auth: OAuthConfig, userId: string, rejected?: string): Promise<StoredToken>;
  /** Stores a token obtained outside the cache (authorization code exchange). */
  put(key: TokenKey, token: StoredToken): Promise<void>;
  forgetUser(connectorId: string, userId: string): void;
  clear(): void;
};

const memoryTtl = (key: TokenKey, token: StoredToken): number => {
  const ttl = Math.max(1, usableUntil(token) - Date.now());
  return key.userId === '' ? ttl : Math.min(ttl, userTokenMemoryMs);
};

/**
 * Memory (lru-cache) over the store over the token endpoint. lru-cache's `fetchMethod` folds concurrent
 * misses in this process into one call; the advisory lock around "read store → fetch if missing or
 * expired → write store" folds them across replicas, so one token request serves them all.
 */
export const createTokenCache = ({
  database,
  store,
  metrics,
  log,
  guard,
  configurationOf,
}: TokenCacheDeps): TokenCache => {
  const lockSlots = createLimiter(maxConcurrentLockHolders);
  const grantLabel = (auth: OAuthConfig) => auth.type;

  const obtain = async ({ auth, key, rejected }: FetchContext): Promise<StoredToken> => {
    const stored = await store.read(key);
    if (stored && stored.accessToken !== rejected && usableUntil(stored) > Date.now()) {
      metrics.tokenCache(key.connectorId, 'store');
      return stored;
    }
    metrics.tokenCache(key.connectorId, 'miss');
    await assertResolvedAddressAllowed(new URL(tokenEndpointOf(auth)), guard, 'token endpoint');
    const config = configurationOf(auth);
    let fresh: StoredToken | undefined;
    if (stored?.refreshToken) {
      const obtainedAt = Date.now();
      try {
        fresh = { ...(await runRefresh(auth, config, stored.refreshToken)), obtainedAt };
        metrics.tokenRequest(key.connectorId, 'refresh_token', 'ok');
      } catch (error) {
        metrics.tokenRequest(key.connectorId, 'refresh_token', 'error');
        log.warn(
          { connectorId: key.connectorId, usage: key.usage, reason: (error as Error).message },
          'refresh token refused; running the grant again',
        );
      }
    }
    if (!fresh) {
      if (auth.type === 'oAuth2AuthorizationCode') {
        // Only the user can run this grant again, by logging in.
        if (stored) await store.removeUser(key.connectorId, key.usage, key.userId);
        throw new AuthorizationRequiredError(key.connectorId);
      }
      const obtainedAt = Date.now();
      try {
        fresh = { ...(await runGrant(auth, config)), obtainedAt };
        metrics.tokenRequest(key.connectorId, grantLabel(auth), 'ok');
      } catch (error) {
        metrics.tokenRequest(key.connectorId, grantLabel(auth), 'error');
        log.warn(
          {
            connectorId: key.connectorId,
            usage: key.usage,
            type: auth.type,
            reason: (error as Error).message,
          },
          'token request failed',
        );
        throw error;
      }
    }
    await store.write(key, fresh);
    return fresh;
  };

  const cache = new LRUCache<string, StoredToken, FetchContext>({
    max: 10_000,
    ttl: 60_000,
    fetchMethod: async (cacheKey, _stale, { context, options }) => {
      const token = await lockSlots(() =>
        database.withAdvisoryLock(`connector-token:${cacheKey}`, () => obtain(context)),
      );
      options.ttl = memoryTtl(context.key, token);
      return token;
    },
  });

  return {
    async get(auth, userId, rejected) {
      const key: TokenKey = {
        connectorId: auth.connectorId,
        usage: auth.usage,
        revision: auth.revision,
        userId,
      };
      const cacheKey = cacheKeyOf(key);
      if (rejected === undefined) {
        // The common case answered synchronously: `fetch` would build a status object and promises for it.
        const hit = cache.get(cacheKey);
        if (hit) {
          metrics.tokenCache(key.connectorId, 'hit');
          return hit;
        }
      } else {
        // Another request may already have replaced the rejected token: then that one is the fresh one.
        const current = cache.get(cacheKey);
        if (current && current.accessToken !== rejected) return current;
      }
      const status: LRUCache.Status<string, StoredToken, FetchContext> = {};
      const token = await cache.fetch(cacheKey, {
        context: { auth, key, rejected },
        forceRefresh: rejected !== undefined,
        status,
      });
      if (status.fetch === 'hit' || status.fetch === 'inflight') {
        metrics.tokenCache(key.connectorId, status.fetch);
      }
      if (!token) throw new Error('token cache returned nothing');
      return token;
    },
    async put(key, token) {
      await lockSlots(() =>
        database.withAdvisoryLock(`connector-token:${cacheKeyOf(key)}`, () => store.write(key, token)),
      );
      cache.set(cacheKeyOf(key), token, { ttl: memoryTtl(key, token) });
    },
    forgetUser(connectorId, userId) {
      for (const cacheKey of [...cache.keys()]) {
        if (cacheKey.startsWith(`${connectorId}:`) && cacheKey.endsWith(`:${userId}`)) cache.delete(cacheKey);
      }
    },
    clear() {
      cache.clear();
    },
  };
};
