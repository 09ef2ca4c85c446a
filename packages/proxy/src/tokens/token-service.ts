import type { Database, SecretBox } from '@platform/store';
import { LRUCache } from 'lru-cache';
import type { Configuration } from 'openid-client';
import type { Logger } from 'pino';
import type { Agent } from 'undici';
import type { OAuthConfig } from '../auth-config.ts';
import type { ProxyMetrics } from '../metrics.ts';
import type { AddressGuard } from '../net/address-guard.ts';
import type { ConnectorConfigLoader } from '../proxy/connector-config.ts';
import type { Credential } from '../proxy/send-upstream.ts';
import { type AuthorizationCodeFlow, createAuthorizationCodeFlow } from './authorization-code.ts';
import { lastAssertionOf } from './jwt-assertion.ts';
import { buildConfiguration } from './oauth-configuration.ts';
import { createTokenCache } from './token-cache.ts';
import { createTokenStore, type StoredToken } from './token-store.ts';

/**
 * OAuth 2.0 access tokens for connectors. `bearer` returns a cached token or obtains one (one token
 * request per key across concurrent callers and replicas); `renew` replaces a token the target refused.
 * The authorization code methods throw ServiceErrors (400 / 404 / 403 / 502) for the server to map.
 */
export type TokenService = AuthorizationCodeFlow & {
  /**
   * The `Authorization: Bearer` credential of the key's access token: at once when the token is in memory (one
   * object per token, made when the token is first used), else once it is read or obtained.
   */
  bearer(auth: OAuthConfig, userId: string): Credential | Promise<Credential>;
  /**
   * A token other than `rejected`; undefined while renewals of this key are backed off (one ran moments ago, on any
   * replica): the target's 401 is then passed back without a retry.
   */
  renew(auth: OAuthConfig, userId: string, rejected: string): Promise<string | undefined>;
  /**
   * The token values held for the key (access and refresh token, from memory, else the store; the tokens a target
   * refused lately) and the newest signed JWT-bearer assertion: what a connector's words are redacted of besides the
   * configuration's secrets.
   */
  heldSecrets(auth: OAuthConfig, userId: string): Promise<string[]>;
};

export type TokenServiceDeps = {
  database: Database;
  secrets: SecretBox;
  log: Logger;
  metrics: ProxyMetrics;
  loader: ConnectorConfigLoader;
  agent: Agent;
  guard: AddressGuard;
  /** TOKEN_TIMEOUT_SECONDS in milliseconds: the most a token request may take (504 after). */
  tokenTimeoutMs: number;
  publicUrl: string;
};

/** Refused tokens kept per key for redaction (connector-secrets.ts), and how long. */
const REFUSED_KEPT = 4;
const REFUSED_MEMORY_MS = 10 * 60_000;

/** Only the authorization code type is per platform user. */
const userKeyOf = (auth: OAuthConfig, userId: string): string =>
  auth.type === 'oAuth2AuthorizationCode' ? userId : '';

export const createTokenService = (deps: TokenServiceDeps): TokenService & { clear(): Promise<void> } => {
  const { database, secrets, log, metrics, loader, agent, guard, tokenTimeoutMs, publicUrl } = deps;
  // openid-client Configurations per configuration revision: a new revision builds a new one.
  const configurations = new LRUCache<string, Configuration>({ max: 2_000 });
  const configurationOf = (auth: OAuthConfig): Configuration => {
    const key = `${auth.connectorId}:${auth.usage}:${auth.revision}`;
    let config = configurations.get(key);
    if (!config) {
      config = buildConfiguration(auth, { agent, guard, timeoutMs: tokenTimeoutMs });
      configurations.set(key, config);
    }
    return config;
  };
  const store = createTokenStore(database, secrets);
  const cache = createTokenCache({
    database,
    store,
    metrics,
    log,
    configurationOf,
    guard,
    timeoutMs: tokenTimeoutMs,
  });
  const flow = createAuthorizationCodeFlow({
    database,
    secrets,
    loader,
    cache,
    metrics,
    publicUrl,
    allowHttpEndpoints: guard.allowPrivateNetworks,
    configurationOf,
  });
  // Tokens a target refused lately (renewed since): the target's 401 body may echo one, and a connector may repeat it.
  const refused = new LRUCache<string, string[]>({ max: 10_000, ttl: REFUSED_MEMORY_MS });
  const refusedKeyOf = (auth: OAuthConfig, userKey: string) =>
    `${auth.connectorId}:${auth.usage}:${auth.revision}:${userKey}`;
  const remember = (auth: OAuthConfig, userKey: string, token: string) => {
    const key = refusedKeyOf(auth, userKey);
    const kept = refused.get(key) ?? [];
    if (!kept.includes(token)) refused.set(key, [token, ...kept].slice(0, REFUSED_KEPT));
  };
  // Keyed by the token object the cache holds: the credential lives exactly as long as the token does.
  const bearers = new WeakMap<StoredToken, Credential>();
  const bearerOf = (token: StoredToken): Credential => {
    let credential = bearers.get(token);
    if (!credential) {
      credential = { name: 'authorization', value: `Bearer ${token.accessToken}` };
      bearers.set(token, credential);
    }
    return credential;
  };
  return {
    ...flow,
    bearer(auth, userId) {
      const token = cache.get(auth, userKeyOf(auth, userId));
      return token instanceof Promise ? token.then(bearerOf) : bearerOf(token);
    },
    async renew(auth, userId, rejected) {
      remember(auth, userKeyOf(auth, userId), rejected);
      const token = (await cache.get(auth, userKeyOf(auth, userId), rejected)).accessToken;
      return token === rejected ? undefined : token;
    },
    async heldSecrets(auth, userId) {
      const userKey = userKeyOf(auth, userId);
      const token =
        cache.peek(auth, userKey) ??
        (await store.read({
          connectorId: auth.connectorId,
          usage: auth.usage,
          revision: auth.revision,
          userId: userKey,
        }));
      const assertion = auth.type === 'oAuth2JwtBearer' ? lastAssertionOf(auth.data) : undefined;
      return [
        token?.accessToken,
        token?.refreshToken,
        assertion,
        ...(refused.get(refusedKeyOf(auth, userKey)) ?? []),
      ].filter((v): v is string => v !== undefined);
    },
    async clear() {
      configurations.clear();
      refused.clear();
      await cache.clear();
    },
  };
};
