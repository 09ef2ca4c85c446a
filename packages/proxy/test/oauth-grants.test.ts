import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { SecretBox } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  environmentId,
  environmentTechnicalName,
  insertConnector,
  newSecrets,
  seedEnvironment,
  setAuth,
} from './support/database.ts';
import { type Harness, startProxy } from './support/harness.ts';
import { loginThroughBrowser, type Oidc, oidcClients, startOidc } from './support/oidc.ts';
import { startTarget, type Target } from './support/servers.ts';
import { startTokenServer } from './support/token-server.ts';

const backends = await testBackends();

const secretValues = [
  oidcClients.clientCredentials.secret,
  oidcClients.password.secret,
  oidcClients.password.password,
  oidcClients.code.secret,
  'BEGIN PRIVATE KEY',
  'json-secret-value-1234',
  'json-secret_value.1234',
];

const bearerOf = (target: Target) => target.requests.at(-1)?.headers.authorization;

describe.each(backends)('OAuth 2.0 grants against oidc-provider on $name', (backend) => {
  const codeConnectorId = randomUUID();
  const redirectUri = `http://platform.test/grafx/api/v1/environment/${environmentTechnicalName}/connectors/${codeConnectorId}/auth/oauth-authorization-code/redirect`;
  let oidc: Oidc;
  let target: Target;
  let database: TestDatabase;
  let secrets: SecretBox;
  let harness: Harness;

  beforeAll(async () => {
    oidc = await startOidc([redirectUri]);
    target = await startTarget();
  });
  afterAll(async () => {
    await oidc.close();
    await target.close();
  });
  beforeEach(async () => {
    database = await backend.fresh();
    secrets = newSecrets();
    await seedEnvironment(database);
    harness = await startProxy(database, secrets);
    return async () => {
      await harness.close();
      await database.close();
      const log = harness.lines.join('\n');
      for (const secret of secretValues) expect(log).not.toContain(secret);
      for (const token of oidc.issued) expect(log).not.toContain(token);
    };
  });

  it('client credentials: injects a Bearer token, cached for later calls', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2ClientCredentials', {
      clientId: oidcClients.clientCredentials.id,
      clientSecret: oidcClients.clientCredentials.secret,
      scope: 'api',
      tokenEndpoint: oidc.tokenEndpoint,
    });
    const before = oidc.grants.get('client_credentials') ?? 0;
    for (let i = 0; i < 3; i++)
      expect((await harness.call(id, { url: `${target.url}/cc` })).status).toBe(200);
    expect(oidc.grants.get('client_credentials')).toBe(before + 1);
    expect(bearerOf(target)).toBe(`Bearer ${oidc.issued.at(-1)}`);
  });

  it('resource owner password: genericGrantRequest with grant_type password', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'server', 'oAuth2ResourceOwnerPassword', {
      clientId: oidcClients.password.id,
      clientSecret: oidcClients.password.secret,
      username: oidcClients.password.username,
      password: oidcClients.password.password,
      tokenEndpoint: oidc.tokenEndpoint,
    });
    const response = await harness.call(id, {
      url: `${target.url}/pw`,
      usage: 'server',
      roles: ['platform:read', 'connector:server'],
    });
    expect(response.status).toBe(200);
    expect(bearerOf(target)).toBe(`Bearer ${oidc.issued.at(-1)}`);
  });

  it('resource owner password with a refused password: 502 naming the OAuth error, no secret', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2ResourceOwnerPassword', {
      clientId: oidcClients.password.id,
      clientSecret: oidcClients.password.secret,
      username: oidcClients.password.username,
      password: 'wrong-password-xyz',
      tokenEndpoint: oidc.tokenEndpoint,
    });
    const response = await harness.call(id, { url: `${target.url}/pw` });
    expect(response.status).toBe(502);
    expect(JSON.parse(response.text).detail).toContain('invalid_grant');
    expect(response.text).not.toContain('wrong-password-xyz');
    expect(harness.lines.join('\n')).not.toContain('wrong-password-xyz');
  });

  it('JWT bearer: an RS256 assertion with iat, exp, jti and the configured claims and body params', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2JwtBearer', {
      tokenEndpoint: oidc.tokenEndpoint,
      signatureConfig: { algorithm: 'RS256', privateKey: oidc.privateKeyPem },
      jwtPayload: { iss: 'connector', sub: 'svc@acme', aud: oidc.tokenEndpoint },
      requestBodyParams: { client_id: oidcClients.jwt.id, extra: 'hello' },
    });
    const response = await harness.call(id, { url: `${target.url}/jwt` });
    expect(response.status).toBe(200);
    expect(bearerOf(target)).toBe(`Bearer ${oidc.issued.at(-1)}`);
    const claims = oidc.assertions.at(-1)!;
    expect(claims).toMatchObject({ iss: 'connector', sub: 'svc@acme', extra: 'hello' });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(300);
  });

  it('authorization code: login with state and PKCE, redirect, completion by the starting user only, per-user token, refresh, logout', async () => {
    const id = await insertConnector(database, { id: codeConnectorId, allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2AuthorizationCode', {
      clientId: oidcClients.code.id,
      clientSecret: oidcClients.code.secret,
      scope: 'api offline_access',
      authorizationServerMetadata: {
        authorization_endpoint: oidc.authorizationEndpoint,
        token_endpoint: oidc.tokenEndpoint,
        token_endpoint_auth_methods_supported: ['client_secret_post'],
      },
    });
    // Not logged in yet: 401 with the signal the connector runtime acts on.
    const before = await harness.call(id, { url: `${target.url}/code` });
    expect(before.status).toBe(401);
    expect(before.headers['x-grafx-unauthorized']).toBe(`oAuth2AuthorizationCode, ${id}`);

    const { authorizationUrl } = await harness.proxy.tokens.login({
      environmentId,
      connectorId: id,
      userId: 'auth0|alice',
    });
    const url = new URL(authorizationUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(redirectUri);
    const callback = await loginThroughBrowser(authorizationUrl, 'alice');
    expect(callback.searchParams.get('code')).toBeTruthy();
    const handed = await harness.proxy.tokens.redirect({
      environmentId,
      connectorId: id,
      query: callback.searchParams,
    });
    expect(handed).toEqual({
      kind: 'code',
      state: url.searchParams.get('state'),
      code: callback.searchParams.get('code'),
    });
    if (handed.kind !== 'code') throw new Error('no code');
    const completion = { environmentId, connectorId: id, state: handed.state, code: handed.code };
    // Another platform user presenting the callback: refused, and the state is burnt.
    await expect(harness.proxy.tokens.complete({ ...completion, userId: 'auth0|bob' })).rejects.toMatchObject(
      {
        status: 403,
      },
    );
    await expect(
      harness.proxy.tokens.complete({ ...completion, userId: 'auth0|alice' }),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect((await harness.call(id, { url: `${target.url}/code`, userId: 'auth0|bob' })).status).toBe(401);

    // A fresh login, completed by the user who started it.
    const second = await harness.proxy.tokens.login({
      environmentId,
      connectorId: id,
      userId: 'auth0|alice',
    });
    const secondCallback = await loginThroughBrowser(second.authorizationUrl, 'alice');
    await harness.proxy.tokens.complete({
      environmentId,
      connectorId: id,
      userId: 'auth0|alice',
      state: secondCallback.searchParams.get('state') ?? '',
      code: secondCallback.searchParams.get('code') ?? '',
    });
    // The state is single use.
    await expect(
      harness.proxy.tokens.complete({
        environmentId,
        connectorId: id,
        userId: 'auth0|alice',
        state: secondCallback.searchParams.get('state') ?? '',
        code: secondCallback.searchParams.get('code') ?? '',
      }),
    ).rejects.toMatchObject({ status: 400 });

    expect((await harness.call(id, { url: `${target.url}/code`, userId: 'auth0|alice' })).status).toBe(200);
    const aliceToken = bearerOf(target);
    expect(aliceToken).toMatch(/^Bearer .+/);
    // Another platform user has no login of their own.
    expect((await harness.call(id, { url: `${target.url}/code`, userId: 'auth0|bob' })).status).toBe(401);

    // The target refuses the token once: the proxy renews it with the refresh token and retries.
    let refusals = 1;
    target.routes.set('/code-refuse', (_req, res) => {
      res.writeHead(refusals-- > 0 ? 401 : 200);
      res.end();
    });
    const refreshesBefore = oidc.grants.get('refresh_token') ?? 0;
    const retried = await harness.call(id, { url: `${target.url}/code-refuse`, userId: 'auth0|alice' });
    expect(retried.status).toBe(200);
    expect(oidc.grants.get('refresh_token')).toBe(refreshesBefore + 1);
    expect(bearerOf(target)).not.toBe(aliceToken);

    await harness.proxy.tokens.logout({ environmentId, connectorId: id, userId: 'auth0|alice' });
    expect((await harness.call(id, { url: `${target.url}/code`, userId: 'auth0|alice' })).status).toBe(401);
  });

  it('authorization code across replicas: completes with the client secret stored a moment ago on another replica', async () => {
    // Two proxies on one database stand for two replicas; their configuration caches are long so that a stale read
    // could not go unnoticed (docs/deployment.md).
    const first = await startProxy(database, secrets, { configCacheMs: 60_000 });
    const second = await startProxy(database, secrets, { configCacheMs: 60_000 });
    try {
      const id = await insertConnector(database, { id: codeConnectorId, allowedDomains: ['127.0.0.1'] });
      const configure = (clientSecret: string) =>
        setAuth(database, secrets, id, 'browser', 'oAuth2AuthorizationCode', {
          clientId: oidcClients.code.id,
          clientSecret,
          scope: 'api',
          authorizationServerMetadata: {
            authorization_endpoint: oidc.authorizationEndpoint,
            token_endpoint: oidc.tokenEndpoint,
            token_endpoint_auth_methods_supported: ['client_secret_post'],
          },
        });
      // A wrong secret first, which the first replica reads and caches (a login there).
      await configure('not-the-secret');
      await first.proxy.tokens.login({ environmentId, connectorId: id, userId: 'auth0|alice' });
      // Then the right one, written through the other replica (whose own cache it drops, not the first's).
      await configure(oidcClients.code.secret);
      second.proxy.invalidateConnector(id);
      const { authorizationUrl } = await second.proxy.tokens.login({
        environmentId,
        connectorId: id,
        userId: 'auth0|alice',
      });
      const callback = await loginThroughBrowser(authorizationUrl, 'alice');
      const grants = oidc.grants.get('authorization_code') ?? 0;
      // The browser comes back through the load balancer to the first replica.
      await first.proxy.tokens.complete({
        environmentId,
        connectorId: id,
        userId: 'auth0|alice',
        state: callback.searchParams.get('state') ?? '',
        code: callback.searchParams.get('code') ?? '',
      });
      expect(oidc.grants.get('authorization_code')).toBe(grants + 1);
      expect((await second.call(id, { url: `${target.url}/code` })).status).toBe(200);
      expect(bearerOf(target)).toBe(`Bearer ${oidc.issued.at(-1)}`);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe.each(backends)('token endpoint behaviour on $name', (backend) => {
  let database: TestDatabase;
  let secrets: SecretBox;
  let target: Target;
  let tokens: Awaited<ReturnType<typeof startTokenServer>>;
  let harness: Harness;

  beforeEach(async () => {
    database = await backend.fresh();
    secrets = newSecrets();
    await seedEnvironment(database);
    target = await startTarget();
    tokens = await startTokenServer();
    harness = await startProxy(database, secrets, { tokenTimeoutMs: 1_000 });
    return async () => {
      await harness.close();
      await tokens.close();
      await target.close();
      await database.close();
      const log = harness.lines.join('\n');
      for (const secret of secretValues) expect(log).not.toContain(secret);
      for (const token of tokens.issued) expect(log).not.toContain(token);
    };
  });

  const passwordConnector = async (bodyFormat: 'applicationJson' | 'formUrlEncoded' = 'formUrlEncoded') => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2ResourceOwnerPassword', {
      clientId: 'json-client',
      clientSecret: "json-secret_value.1234~!*'() +:",
      username: 'alice',
      password: 'alice-pw-5678',
      bodyFormat,
      tokenEndpoint: `${tokens.url}/token`,
    });
    return id;
  };

  it('sends a JSON body for bodyFormat applicationJson, client authentication in Basic', async () => {
    const id = await passwordConnector('applicationJson');
    expect((await harness.call(id, { url: `${target.url}/x` })).status).toBe(200);
    const sent = tokens.requests.at(-1)!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent.body)).toEqual({
      grant_type: 'password',
      username: 'alice',
      password: 'alice-pw-5678',
    });
    // RFC 6749 §2.3.1: id and secret are form-encoded before Basic encoding, which escapes neither `-` nor `_.~!*'()`
    // (a token endpoint that does not decode them still reads the secret it was given); a space is `+`.
    const basic = Buffer.from(String(sent.headers.authorization).replace(/^Basic /, ''), 'base64').toString();
    expect(basic).toBe("json-client:json-secret_value.1234~!*'()+%2B%3A");
    expect(basic.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')))).toEqual([
      'json-client',
      "json-secret_value.1234~!*'() +:",
    ]);
    expect(bearerOf(target)).toBe('Bearer tok-1');
  });

  it.each([
    [undefined, 'basic'],
    [['client_secret_basic', 'client_secret_post'], 'basic'],
    [['client_secret_post', 'client_secret_basic'], 'post'],
  ] as const)(
    'resource owner password with token_endpoint_auth_methods_supported %j: client_secret_%s',
    async (methods, expected) => {
      const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
      await setAuth(database, secrets, id, 'browser', 'oAuth2ResourceOwnerPassword', {
        clientId: 'ropc-client',
        clientSecret: 'json-secret-value-1234',
        username: 'alice',
        password: 'alice-pw-5678',
        tokenEndpoint: `${tokens.url}/token`,
        ...(methods
          ? { authorizationServerMetadata: { token_endpoint_auth_methods_supported: [...methods] } }
          : {}),
      });
      expect((await harness.call(id, { url: `${target.url}/x` })).status).toBe(200);
      const sent = tokens.requests.at(-1)!;
      const form = new URLSearchParams(sent.body);
      expect(form.get('grant_type')).toBe('password');
      if (expected === 'basic') {
        expect(String(sent.headers.authorization)).toMatch(/^Basic /);
        expect(form.has('client_secret')).toBe(false);
      } else {
        expect(sent.headers.authorization).toBeUndefined();
        expect(form.get('client_id')).toBe('ropc-client');
        expect(form.get('client_secret')).toBe('json-secret-value-1234');
      }
      expect(bearerOf(target)).toBe('Bearer tok-1');
    },
  );

  it('JWT bearer: number and boolean claims keep their JSON types in the assertion, body params go as text', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2JwtBearer', {
      tokenEndpoint: `${tokens.url}/token`,
      signatureConfig: {
        algorithm: 'RS256',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      },
      jwtPayload: { iss: 'connector', tenant: 42, admin: true },
      requestBodyParams: { client_id: 'jwt-client', version: 3, verbose: false },
    });
    expect((await harness.call(id, { url: `${target.url}/x` })).status).toBe(200);
    const form = new URLSearchParams(tokens.requests.at(-1)!.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(form.get('client_id')).toBe('jwt-client');
    expect(form.get('version')).toBe('3');
    expect(form.get('verbose')).toBe('false');
    const claims = decodeJwt(form.get('assertion')!);
    expect(claims).toMatchObject({ iss: 'connector', tenant: 42, admin: true });
  });

  it.each([
    ['no-expires-in', 'expires_in'],
    ['error-500', 'HTTP 500'],
    ['garbage', 'invalid JSON'],
    ['oauth-error', 'invalid_client'],
    ['challenge', 'HTTP 401 with a basic challenge, OAuth error "invalid_client".'],
    // Only a body of a reasonable size is searched for the error.
    ['challenge-huge-body', 'HTTP 401 with a basic challenge.'],
    ['token-type-mac', 'token_type is not Bearer'],
    ['token-type-dpop', 'token_type is not Bearer'],
  ] as const)('token endpoint %s → 502 naming the cause', async (mode, cause) => {
    const id = await passwordConnector();
    tokens.mode = mode;
    const response = await harness.call(id, { url: `${target.url}/x` });
    expect(response.status).toBe(502);
    expect(response.headers['content-type']).toBe('application/json');
    const body = JSON.parse(response.text);
    expect(body).toMatchObject({ status: 502, title: 'Bad Gateway', traceId: expect.any(String) });
    expect(body.detail).toContain(cause);
    for (const secret of secretValues) expect(response.text).not.toContain(secret);
    expect(target.requests).toHaveLength(0);
  });

  it('500 concurrent cold calls make exactly one token request; a second proxy on the same database makes none', async () => {
    const id = await passwordConnector();
    const results = await Promise.all(
      Array.from({ length: 500 }, () => harness.call(id, { url: `${target.url}/many` })),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => r.text)).toEqual([]);
    expect(tokens.requests).toHaveLength(1);
    expect(new Set(target.requests.map((r) => r.headers.authorization))).toEqual(new Set(['Bearer tok-1']));

    const second = await startProxy(database, secrets);
    try {
      const again = await Promise.all(
        Array.from({ length: 50 }, () => second.call(id, { url: `${target.url}/again` })),
      );
      expect(again.every((r) => r.status === 200)).toBe(true);
      expect(tokens.requests).toHaveLength(1);
      expect(bearerOf(target)).toBe('Bearer tok-1');
    } finally {
      await second.close();
    }
  });

  it('a 401 from the target renews the token and retries once; a second 401 carries X-GRAFX-UNAUTHORIZED', async () => {
    const id = await passwordConnector();
    let refusals = 1;
    target.routes.set('/once', (_req, res, recorded) => {
      res.writeHead(refusals-- > 0 ? 401 : 200, { 'content-type': 'text/plain' });
      res.end(recorded.body);
    });
    const retried = await harness.call(id, { url: `${target.url}/once`, method: 'POST', body: 'replay me' });
    expect(retried.status).toBe(200);
    expect(retried.text).toBe('replay me');
    expect(tokens.requests).toHaveLength(2);
    expect(bearerOf(target)).toBe('Bearer tok-2');

    target.routes.set('/always', (_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer' });
      res.end('no');
    });
    const refused = await harness.call(id, { url: `${target.url}/always` });
    expect(refused.status).toBe(401);
    expect(refused.headers['x-grafx-unauthorized']).toBe(`oAuth2ResourceOwnerPassword, ${id}`);
    // tok-2 came from a renewal moments ago: no second renewal within the backoff, the 401 is the answer.
    expect(tokens.requests).toHaveLength(2);
    expect(target.requests.filter((r) => r.path === '/always')).toHaveLength(1);
  });

  it('refuses a token endpoint on a private address with 403', async () => {
    const guarded = await startProxy(database, secrets, {
      allowPrivateNetworks: false,
      isPublicAddress: (address) => address === '127.0.0.1',
    });
    try {
      const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
      await setAuth(database, secrets, id, 'browser', 'oAuth2ClientCredentials', {
        clientId: 'c',
        clientSecret: 'json-secret-value-1234',
        tokenEndpoint: `http://127.0.0.2:${tokens.port}/token`,
      });
      // An https target on the default port, which the credentials may go to: the token endpoint is what is refused.
      const response = await guarded.call(id, { url: 'https://127.0.0.1/x' });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.text).detail).toContain('token endpoint');
      expect(tokens.requests).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });

  it('a new configuration revision keeps the cached token: only deleting the connector resets it', async () => {
    const id = await passwordConnector();
    expect((await harness.call(id, { url: `${target.url}/x` })).status).toBe(200);
    const cached = bearerOf(target);
    const requested = tokens.requests.length;
    await passwordConnector(); // unrelated connector, no effect
    await setAuth(database, secrets, id, 'browser', 'oAuth2ResourceOwnerPassword', {
      clientId: 'json-client',
      clientSecret: 'another-secret',
      username: 'alice',
      password: 'alice-pw-5678',
      tokenEndpoint: `${tokens.url}/token`,
    });
    expect((await harness.call(id, { url: `${target.url}/x` })).status).toBe(200);
    expect(bearerOf(target)).toBe(cached);
    expect(tokens.requests).toHaveLength(requested);
  });

  it('in process: a fetch refused for want of a login names its host as well', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2AuthorizationCode', {
      clientId: 'code-client',
      clientSecret: 'code-secret-1234',
      authorizationServerMetadata: {
        authorization_endpoint: `${target.url}/authorize`,
        token_endpoint: `${target.url}/token`,
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      },
    });
    const fetch = harness.proxy.fetchFor(
      {
        environmentId,
        connectorId: id,
        caller: { userId: 'auth0|alice', roles: new Set(['platform:read']) },
      },
      'browser',
    );
    const refused = await fetch(
      { url: `${target.url}/items`, method: 'GET', headers: {}, body: undefined, maxResponseBytes: 1024 },
      new AbortController().signal,
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'FETCH_REFUSED' });
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^The fetch to ${new URL(target.url).host} was refused: No OAuth 2\\.0 authorization code login`,
      ),
    );
  });

  it('a refresh token of an earlier configuration never goes to the token endpoint of the day', async () => {
    tokens.rotateRefreshTokens = true;
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    const configure = (clientId: string, path: string) =>
      setAuth(database, secrets, id, 'browser', 'oAuth2ClientCredentials', {
        clientId,
        clientSecret: 'json-secret-value-1234',
        tokenEndpoint: `${tokens.url}${path}`,
      });
    const clientOf = (request: { headers: { authorization?: string } }) =>
      Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')[0];
    let refusals = 0;
    target.routes.set('/refuses', (_req, res) => {
      res.writeHead(refusals-- > 0 ? 401 : 200);
      res.end();
    });

    await configure('client-a', '/provider-a/token');
    expect((await harness.call(id, { url: `${target.url}/refuses` })).status).toBe(200);
    const first = bearerOf(target);
    // Another client at another provider: the token of provider A is still used (rule 4) until the target refuses it.
    await configure('client-b', '/provider-b/token');
    refusals = 1;
    tokens.expiresIn = 1;
    const before = tokens.requests.length;
    expect((await harness.call(id, { url: `${target.url}/refuses` })).status).toBe(200);
    const renewal = tokens.requests.slice(before);
    expect(renewal).toHaveLength(1);
    const form = new URLSearchParams(renewal[0]!.body);
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.has('refresh_token')).toBe(false);
    expect(clientOf(renewal[0]!)).toBe('client-b');
    expect(bearerOf(target)).not.toBe(first);

    // Under one configuration the refresh token is what renews: here once client B's token (one second) expires.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const again = tokens.requests.length;
    expect((await harness.call(id, { url: `${target.url}/x` })).status).toBe(200);
    const refresh = new URLSearchParams(tokens.requests[again]!.body);
    expect(refresh.get('grant_type')).toBe('refresh_token');
    expect(refresh.get('refresh_token')).toBe(`rt-${tokens.issued.length - 1}`);
    expect(clientOf(tokens.requests[again]!)).toBe('client-b');
  });
});
