import { isServiceError, type ServiceError } from '@platform/core';
import type { Database } from '@platform/store';
import { LRUCache } from 'lru-cache';
import type { Configuration } from 'openid-client';
import type { Logger } from 'pino';
import type { OAuthConfig } from '../auth-config.ts';
import type { ProxyMetrics } from '../metrics.ts';
import { type AddressGuard, assertResolvedAddressAllowed } from '../net/address-guard.ts';
import { AuthorizationRequiredError } from './authorization-required-error.ts';
import { createEndpointSlots } from './endpoint-slots.ts';
import { createFetchLeases } from './fetch-lease.ts';
import { createFetchSignal } from './fetch-signal.ts';
import { tokenEndpointOf } from './oauth-configuration.ts';
import { runGrant, runRefresh } from './run-grant.ts';
import { tokenBackoffMs, tokenTimeoutError, withDeadline } from './token-backoff.ts';
import type { StoredRow, StoredToken, TokenKey, TokenStore, WithinWrite } from './token-store.ts';

/** Token requests at once per token endpoint and connector in one process (endpoint-slots.ts). */
const slotsPerEndpoint = 4;

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
  /** TOKEN_TIMEOUT_SECONDS in milliseconds: the most one token request (queue included) may take. */
  timeoutMs: number;
  configurationOf(auth: OAuthConfig): Configuration;
};

export type TokenCache = {
  /**
   * With `rejected`: a token other than that one, or that one again while renewals are backed off. Without it, a
   * token in memory is answered at once, not as a promise: a proxied request then waits for no turn of the event loop.
   */
  get(auth: OAuthConfig, userId: string, rejected?: string): StoredToken | Promise<StoredToken>;
  /** The key's token this process holds in memory, without obtaining one or counting a cache hit. */
  peek(auth: OAuthConfig, userId: string): StoredToken | undefined;
  /** Stores a token obtained outside the cache (authorization code exchange). */
  put(key: TokenKey, token: StoredToken, within?: WithinWrite): Promise<void>;
  forgetUser(connectorId: string, userId: string): void;
  clear(): Promise<void>;
};

const memoryTtl = (key: TokenKey, token: StoredToken): number => {
  const ttl = Math.max(1, usableUntil(token) - Date.now());
  return key.userId === '' ? ttl : Math.min(ttl, userTokenMemoryMs);
};

const isUsable = (token: StoredToken | undefined, rejected: string | undefined): token is StoredToken =>
  token !== undefined && token.accessToken !== rejected && usableUntil(token) > Date.now();

/**
 * Memory (lru-cache) over the store over the token endpoint. lru-cache's `fetchMethod` folds concurrent misses in
 * this process into one call; a lease row (fetch-lease.ts) folds them across replicas, without holding a database
 * connection while the endpoint answers. The lease holder announces the outcome on one channel: a token, or a
 * failure that every waiter on every replica gets at once and that is remembered for a few seconds (token-backoff.ts),
 * so a failing provider sees about one request per key in that time however many calls arrive.
 */
export const createTokenCache = ({
  database,
  store,
  metrics,
  log,
  guard,
  timeoutMs,
  configurationOf,
}: TokenCacheDeps): TokenCache => {
  const leases = createFetchLeases(database);
  const signal = createFetchSignal(database);
  const endpointSlots = createEndpointSlots(slotsPerEndpoint);
  /** Failures remembered here too, so a burst of calls during the failure does not each ask the database. */
  const failures = new LRUCache<string, ServiceError>({ max: 10_000, ttl: 1 });
  const remember = (cacheKey: string, error: ServiceError, forMs: number) => {
    if (forMs >= 1) failures.set(cacheKey, error, { ttl: forMs });
  };
  /** A lease outlives the request it covers, so a replica that dies while fetching delays the others only so long. */
  const leaseMs = timeoutMs + 2_000;

  /**
   * Refresh token first when there is one obtained under this configuration, else the grant again (never for the
   * authorization code type). A refresh token of an earlier configuration is never presented: it belongs to the client
   * and token endpoint of then, and the configuration of the day may name another of either (docs/connector-auth.md,
   * rule 4).
   */
  const requestToken = async (auth: OAuthConfig, key: TokenKey, stored: StoredRow | undefined) => {
    await assertResolvedAddressAllowed(new URL(tokenEndpointOf(auth)), guard, 'token endpoint');
    const config = configurationOf(auth);
    if (stored?.refreshToken && stored.revision === auth.revision) {
      const obtainedAt = Date.now();
      try {
        const fresh = { ...(await runRefresh(auth, config, stored.refreshToken)), obtainedAt };
        metrics.tokenRequest(key.connectorId, 'refresh_token', 'ok');
        return fresh;
      } catch (error) {
        metrics.tokenRequest(key.connectorId, 'refresh_token', 'error');
        log.warn(
          { connectorId: key.connectorId, usage: key.usage, reason: (error as Error).message },
          'refresh token refused; running the grant again',
        );
      }
    }
    if (auth.type === 'oAuth2AuthorizationCode') {
      // Only the user can run this grant again, by logging in.
      if (stored) await store.removeUser(key.connectorId, key.usage, key.userId);
      throw new AuthorizationRequiredError(key.connectorId);
    }
    const obtainedAt = Date.now();
    try {
      const fresh = { ...(await runGrant(auth, config)), obtainedAt };
      metrics.tokenRequest(key.connectorId, auth.type, 'ok');
      return fresh;
    } catch (error) {
      metrics.tokenRequest(key.connectorId, auth.type, 'error');
      log.warn(
        { connectorId: key.connectorId, usage: key.usage, type: auth.type, reason: (error as Error).message },
        'token request failed',
      );
      throw error;
    }
  };

  /** Runs while holding the lease: fetch, store, announce, and remember a failure for everyone. */
  const fetchHoldingLease = async ({ auth, key, rejected }: FetchContext, cacheKey: string) => {
    try {
      // Another replica may have stored a token between our look and the claim.
      const stored = await store.read(key);
      if (isUsable(stored, rejected)) {
        await leases.succeed(cacheKey);
        return stored;
      }
      const endpoint = new URL(tokenEndpointOf(auth));
      const timedOut = () => tokenTimeoutError(endpoint.host, timeoutMs);
      const deadline = Date.now() + timeoutMs;
      const fresh = await withDeadline(
        endpointSlots(`${endpoint.origin} ${key.connectorId}`, async () => {
          // Queued past the deadline: the caller has its 504 already, so no request is made for nobody.
          if (Date.now() >= deadline) throw timedOut();
          return requestToken(auth, key, stored);
        }),
        timeoutMs,
        timedOut,
      );
      await store.write(key, fresh);
      await leases.succeed(cacheKey);
      return fresh;
    } catch (error) {
      if (isServiceError(error) && !(error instanceof AuthorizationRequiredError)) {
        const forMs = tokenBackoffMs();
        remember(cacheKey, error, forMs);
        await leases.fail(cacheKey, error, forMs).catch(() => {});
      } else await leases.succeed(cacheKey).catch(() => {});
      throw error;
    }
  };

  const obtain = async (context: FetchContext): Promise<StoredToken> => {
    const { key, rejected } = context;
    const cacheKey = cacheKeyOf(key);
    const giveUpAt = Date.now() + 2 * leaseMs;
    for (;;) {
      const armed = await signal.arm(cacheKey);
      try {
        const stored = await store.read(key);
        if (isUsable(stored, rejected)) {
          metrics.tokenCache(key.connectorId, 'store');
          return stored;
        }
        const state = await leases.read(cacheKey);
        if (state.failure) {
          remember(cacheKey, state.failure.error, state.failure.forMs);
          throw state.failure.error;
        }
        // The target refused a token that has not expired: renew, but not again within the backoff.
        const renewal = rejected !== undefined && stored !== undefined && isUsable(stored, undefined);
        if (renewal && state.renewInMs > 0) return stored;
        if (state.leasedForMs === 0) {
          const claimed = await leases.claim(cacheKey, key.connectorId, {
            leaseMs,
            renewal,
            renewBackoffMs: tokenBackoffMs(),
          });
          if (claimed) {
            metrics.tokenCache(key.connectorId, 'miss');
            return await fetchHoldingLease(context, cacheKey);
          }
        }
        if (Date.now() > giveUpAt) {
          throw tokenTimeoutError(new URL(tokenEndpointOf(context.auth)).host, timeoutMs);
        }
        // Woken by the holder's announcement; the timer only covers a lost notification or an expired lease.
        await armed.wait(Math.min(1_000, Math.max(50, state.leasedForMs)));
      } finally {
        armed.cancel();
      }
    }
  };

  const cache = new LRUCache<string, StoredToken, FetchContext>({
    max: 10_000,
    ttl: 60_000,
    fetchMethod: async (_cacheKey, _stale, { context, options }) => {
      const token = await obtain(context);
      options.ttl = memoryTtl(context.key, token);
      return token;
    },
  });

  const fetchToken = async (
    auth: OAuthConfig,
    key: TokenKey,
    cacheKey: string,
    current: StoredToken | undefined,
    rejected: string | undefined,
  ): Promise<StoredToken> => {
    // Another request may already have replaced the rejected token: then that one is the fresh one.
    if (current && current.accessToken !== rejected) return current;
    const failure = failures.get(cacheKey);
    if (failure) throw failure;
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
  };

  const keyOf = (auth: OAuthConfig, userId: string): TokenKey => ({
    connectorId: auth.connectorId,
    usage: auth.usage,
    revision: auth.revision,
    userId,
  });

  return {
    get(auth, userId, rejected) {
      const key = keyOf(auth, userId);
      const cacheKey = cacheKeyOf(key);
      const current = cache.get(cacheKey);
      // The common case answered synchronously: `fetch` would build a status object and promises for it.
      if (current && rejected === undefined) {
        metrics.tokenCache(key.connectorId, 'hit');
        return current;
      }
      return fetchToken(auth, key, cacheKey, current, rejected);
    },
    peek(auth, userId) {
      return cache.peek(cacheKeyOf(keyOf(auth, userId)));
    },
    async put(key, token, within) {
      await store.write(key, token, within);
      const cacheKey = cacheKeyOf(key);
      failures.delete(cacheKey);
      cache.set(cacheKey, token, { ttl: memoryTtl(key, token) });
    },
    forgetUser(connectorId, userId) {
      for (const cacheKey of [...cache.keys()]) {
        if (cacheKey.startsWith(`${connectorId}:`) && cacheKey.endsWith(`:${userId}`)) cache.delete(cacheKey);
      }
    },
    async clear() {
      cache.clear();
      failures.clear();
      await signal.stop();
    },
  };
};
