import {
  assertHttpsEndpoints,
  ForbiddenError,
  isServiceError,
  NotFoundError,
  ValidationError,
} from '@platform/core';
import { type Database, type Db, type SecretBox, schema, trimPendingLogins } from '@platform/store';
import { and, eq, lt } from 'drizzle-orm';
import {
  buildAuthorizationUrl,
  type Configuration,
  calculatePKCECodeChallenge,
  randomPKCECodeVerifier,
  randomState,
} from 'openid-client';
import type { AuthConfig, OAuthConfig } from '../auth-config.ts';
import type { ProxyMetrics } from '../metrics.ts';
import { type ConnectorConfigLoader, isUuid } from '../proxy/connector-config.ts';
import { runGrant } from './run-grant.ts';
import type { TokenCache } from './token-cache.ts';
import { oauthErrorCode } from './token-errors.ts';
import type { WithinWrite } from './token-store.ts';

/**
 * Pending logins kept per user, across connectors (docs/connector-auth.md): starting one more drops the oldest,
 * whose state then answers as unknown. Bounds what one user can store by calling `login` in a loop.
 */
export const MAX_PENDING_LOGINS = 20;

/** A login has this long to come back through the redirect. */
const loginLifetimeMs = 10 * 60_000;

type CodeConfig = Extract<AuthConfig, { type: 'oAuth2AuthorizationCode' }>;

export type LoginContext = { environmentId: number; connectorId: string; userId: string };
export type RedirectContext = {
  environmentId: number;
  connectorId: string;
  /** The callback's query string, as received. */
  query: URLSearchParams | Record<string, string | string[] | undefined>;
};
/**
 * `within`: a step of the caller's (its audit entry) run in the transaction that stores or drops the tokens, so the
 * change never commits without it.
 */
export type CompleteContext = LoginContext & { state: string; code: string; within?: WithinWrite };
export type LogoutContext = LoginContext & { within?: WithinWrite };

/**
 * What the identity provider's callback carried, for the page that hands it to the window that opened the login.
 * `invalid` is one answer for an unknown connector, state or environment: the callback needs no token, so it must not
 * tell which of them exists.
 */
export type RedirectOutcome =
  | { kind: 'code'; state: string; code: string }
  | { kind: 'refused'; state: string; error: string }
  | { kind: 'invalid' };

export type AuthorizationCodeFlow = {
  login(ctx: LoginContext): Promise<{ authorizationUrl: string }>;
  /** Reads the callback; stores and consumes nothing. */
  redirect(ctx: RedirectContext): Promise<RedirectOutcome>;
  /** Exchanges the code for the tokens of the user who started the login, and only for that user. */
  complete(ctx: CompleteContext): Promise<void>;
  logout(ctx: LogoutContext): Promise<void>;
};

export type AuthorizationCodeDeps = {
  database: Database;
  secrets: SecretBox;
  loader: ConnectorConfigLoader;
  cache: TokenCache;
  metrics: ProxyMetrics;
  publicUrl: string;
  /** PROXY_ALLOW_PRIVATE_NETWORKS: plain http endpoints are acceptable (tests, local development). */
  allowHttpEndpoints: boolean;
  configurationOf(auth: OAuthConfig): Configuration;
};

const toSearchParams = (query: RedirectContext['query']): URLSearchParams => {
  if (query instanceof URLSearchParams) return query;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(name, first);
  }
  return params;
};

const codeConfigOf = (auth: AuthConfig | undefined, connectorId: string): CodeConfig => {
  if (auth?.type !== 'oAuth2AuthorizationCode') {
    throw new ValidationError(
      `The browser usage of connector ${connectorId} is not configured with oAuth2AuthorizationCode.`,
    );
  }
  return auth;
};

const invalid: RedirectOutcome = { kind: 'invalid' };

export const createAuthorizationCodeFlow = (deps: AuthorizationCodeDeps): AuthorizationCodeFlow => {
  const { database, secrets, loader, cache, metrics, publicUrl, allowHttpEndpoints, configurationOf } = deps;
  const { oauthLoginStates, environments, connectors } = schema;

  /** One redirect URI per connector (technical name, else guid), so it can be registered at the identity provider. */
  const redirectUriOf = async (environmentId: number, connectorId: string): Promise<string> => {
    const rows = await database.db
      .select({ technicalName: environments.technicalName, guid: environments.guid })
      .from(environments)
      .where(eq(environments.id, environmentId))
      .limit(1);
    const env = rows[0];
    if (!env) throw new NotFoundError('The environment was not found.');
    const segment = encodeURIComponent(env.technicalName ?? env.guid);
    return `${publicUrl.replace(/\/+$/, '')}/grafx/api/v1/environment/${segment}/connectors/${connectorId}/auth/oauth-authorization-code/redirect`;
  };

  /** The connector's authorization-code configuration; NotFoundError when it is not in the environment. */
  const codeConfig = async (environmentId: number, connectorId: string, fresh = false) => {
    if (!isUuid(connectorId))
      throw new NotFoundError(`Connector ${connectorId} was not found in this environment.`);
    const connector = await loader.load(environmentId, connectorId, 'browser', { fresh });
    return { connector, auth: codeConfigOf(connector.auth, connectorId) };
  };

  return {
    async login({ environmentId, connectorId, userId }) {
      const { connector, auth } = await codeConfig(environmentId, connectorId);
      // Stored before the https rule, or under PROXY_ALLOW_PRIVATE_NETWORKS since turned off: refuse, naming the field.
      assertHttpsEndpoints(auth.type, auth.data, allowHttpEndpoints);
      const redirectUri = await redirectUriOf(environmentId, connector.id);
      const state = randomState();
      const codeVerifier = randomPKCECodeVerifier();
      const now = Date.now();
      await database.db.delete(oauthLoginStates).where(lt(oauthLoginStates.expiresAt, new Date(now)));
      await database.db.insert(oauthLoginStates).values({
        state,
        connectorId: connector.id,
        userId,
        revision: auth.revision,
        codeVerifier: secrets.seal(codeVerifier),
        redirectUri,
        expiresAt: new Date(now + loginLifetimeMs),
      });
      await trimPendingLogins(database.db, userId, MAX_PENDING_LOGINS);
      const url = buildAuthorizationUrl(configurationOf(auth), {
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
        code_challenge: await calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...(auth.data.scope ? { scope: auth.data.scope } : {}),
      });
      return { authorizationUrl: url.href };
    },

    async redirect({ environmentId, connectorId, query }) {
      if (!isUuid(connectorId)) return invalid;
      const params = toSearchParams(query);
      const state = params.get('state');
      if (!state) return invalid;
      const rows = await database.db
        .select({ connectorId: oauthLoginStates.connectorId, expiresAt: oauthLoginStates.expiresAt })
        .from(oauthLoginStates)
        .where(eq(oauthLoginStates.state, state))
        .limit(1);
      const login = rows[0];
      if (!login || login.connectorId !== connectorId.toLowerCase() || login.expiresAt.getTime() < Date.now())
        return invalid;
      let auth: CodeConfig;
      try {
        auth = (await codeConfig(environmentId, connectorId)).auth;
      } catch (error) {
        if (isServiceError(error) && error.status < 500) return invalid;
        throw error;
      }
      const refused = params.get('error');
      if (refused) return { kind: 'refused', state, error: oauthErrorCode(refused) };
      const code = params.get(auth.data.specCustomization.codeParameterName);
      if (!code) return { kind: 'refused', state, error: 'invalid_request' };
      return { kind: 'code', state, code };
    },

    async complete({ environmentId, connectorId, userId, state, code, within }) {
      // The configuration as it is now, not as this replica's cache last saw it: a change made on another replica
      // a moment ago (a new client secret) must be what the code is exchanged with.
      const { connector, auth } = await codeConfig(environmentId, connectorId, true);
      // Single use: the state is consumed whoever presents it, so a leaked callback cannot be tried twice.
      const consumed = await database.db
        .delete(oauthLoginStates)
        .where(and(eq(oauthLoginStates.state, state), eq(oauthLoginStates.connectorId, connector.id)))
        .returning();
      const login = consumed[0];
      if (!login || login.expiresAt.getTime() < Date.now()) {
        throw new ValidationError('Unknown or expired login; start the login again.', {
          state: ['unknown or expired'],
        });
      }
      if (login.userId !== userId) {
        throw new ForbiddenError(
          'This login was started by another platform user; only that user can complete it. Start your own login.',
        );
      }
      if (auth.revision !== login.revision) {
        throw new ValidationError('The authorization configuration changed during the login; log in again.');
      }
      assertHttpsEndpoints(auth.type, auth.data, allowHttpEndpoints);
      const obtainedAt = Date.now();
      let token: Awaited<ReturnType<typeof runGrant>>;
      try {
        token = await runGrant(auth, configurationOf(auth), {
          code,
          redirectUri: login.redirectUri,
          codeVerifier: secrets.open(login.codeVerifier),
        });
        metrics.tokenRequest(connector.id, auth.type, 'ok');
      } catch (error) {
        metrics.tokenRequest(connector.id, auth.type, 'error');
        throw error;
      }
      await cache.put(
        { connectorId: connector.id, usage: 'browser', revision: auth.revision, userId: login.userId },
        { ...token, obtainedAt },
        within,
      );
    },

    async logout({ environmentId, connectorId, userId, within }) {
      if (!isUuid(connectorId))
        throw new NotFoundError(`Connector ${connectorId} was not found in this environment.`);
      const rows = await database.db
        .select({ id: connectors.id })
        .from(connectors)
        .where(and(eq(connectors.id, connectorId.toLowerCase()), eq(connectors.environmentId, environmentId)))
        .limit(1);
      const connector = rows[0];
      if (!connector) throw new NotFoundError(`Connector ${connectorId} was not found in this environment.`);
      cache.forgetUser(connector.id, userId);
      await database.db.transaction(async (transaction) => {
        const tx = transaction as unknown as Db;
        await tx
          .delete(schema.connectorTokens)
          .where(
            and(
              eq(schema.connectorTokens.connectorId, connector.id),
              eq(schema.connectorTokens.userId, userId),
            ),
          );
        await within?.(tx);
      });
    },
  };
};
