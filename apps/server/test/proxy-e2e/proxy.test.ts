import { loginThroughBrowser, type Oidc, oidcClients, startOidc } from '@platform/proxy/testing';
import { importDataFile, schema } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTarget, startTokenServer, type Target, type TokenServer } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { connectorBody, connectorsPath, ENVIRONMENT, expectStatus, platformClient } from './support.ts';

/** Secret values configured below besides the provider's client secrets: distinctive, to search for. */
const STATIC_BROWSER = 'static-browser-key-value-6b1f03';
const STATIC_SERVER = 'Bearer static-server-value-c94e7a';
const JSON_ENDPOINT_SECRET = 'json-endpoint-client-secret-2d8e55';
const JSON_ENDPOINT_PASSWORD = 'json-endpoint-password-a07c31';
const SHARED_VALUE = 'shared-header-value-3c5a9e';

const owner = { user: USERS.owner };
const reader = (user: string) => ({ user, roles: ['platform:read'] });
const serverCaller = { user: USERS.contentUser, roles: ['platform:read', 'connector:server'] };

describe.each(await testBackends())('connector proxy through the composed server on $name', (backend) => {
  let tp: TestPlatform;
  let target: Target;
  let tokenServer: TokenServer;
  let oidc: Oidc;
  let codeConnectorId: string;
  const { rest, proxy, responses } = platformClient(() => tp);

  const publish = async (overrides: Record<string, unknown> = {}): Promise<string> => {
    const reply = await rest<{ id: string }>('POST', connectorsPath, {
      ...owner,
      body: connectorBody(overrides),
    });
    expectStatus(reply, 201);
    return reply.body.id;
  };

  const setAuth = async (id: string, kind: string, body: Record<string, unknown>) => {
    const reply = await rest<{ type: string; usage: string }>('PUT', `${connectorsPath}/${id}/auth/${kind}`, {
      ...owner,
      body,
    });
    expectStatus(reply, 200);
    expect(reply.body).toMatchObject({ usage: body.usage });
    return reply.body;
  };

  const grantsOf = (grant: string) => oidc.grants.get(grant) ?? 0;
  const bearerAt = (path: string) => target.last(path)?.headers.authorization;
  const tokenRows = async (connectorId: string) =>
    tp.database.db
      .select({ usage: schema.connectorTokens.usage, userId: schema.connectorTokens.userId })
      .from(schema.connectorTokens)
      .where(eq(schema.connectorTokens.connectorId, connectorId));

  beforeAll(async () => {
    tp = await startTestPlatform(backend, { METRICS_PORT: '0' });
    await importDataFile(tp.database, fixture(new Date()));
    target = await startTarget();
    tokenServer = await startTokenServer();
    // The identity provider must know the platform's redirect URI of the connector before the login starts.
    codeConnectorId = await publish({ name: 'Authorization code connector' });
    oidc = await startOidc(
      [`${tp.url}${connectorsPath}/${codeConnectorId}/auth/oauth-authorization-code/redirect`],
      'client_secret_basic',
    );
  });
  afterAll(async () => {
    await tp?.close();
    await Promise.all([target?.close(), tokenServer?.close(), oidc?.close()]);
  });

  it('staticKey: the header is injected; the caller’s Authorization and x-grafx-* headers never reach the target', async () => {
    const id = await publish();
    await setAuth(id, 'static', { usage: 'browser', key: 'X-Api-Key', value: STATIC_BROWSER });
    // A static `Authorization` is how a connector sends one (docs/connector-proxy.md): it replaces the caller's.
    await setAuth(id, 'static', { usage: 'server', key: 'Authorization', value: STATIC_SERVER });

    const posted = await proxy(id, {
      ...reader(USERS.contentUser),
      url: `${target.url}/static?q=1`,
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        'x-custom': 'kept',
        'x-internal': 'excluded',
        'x-grafx-trace-me': 'dropped',
        'X-GraFx-Proxy-Exclude-Headers': 'x-internal',
      },
      body: 'hello target',
    });
    expectStatus(posted, 200);
    // A target's answer never carries the proxy's own mark.
    expect(posted.headers.get('x-grafx-proxy-error')).toBeNull();
    const seen = target.last('/static?q=1');
    expect(seen).toMatchObject({ method: 'POST', body: 'hello target' });
    expect(seen?.headers['x-api-key']).toBe(STATIC_BROWSER);
    expect(seen?.headers['x-custom']).toBe('kept');
    expect(seen?.headers['x-internal']).toBeUndefined();
    expect(seen?.headers.authorization).toBeUndefined();
    expect(Object.keys(seen?.headers ?? {}).filter((name) => name.startsWith('x-grafx'))).toEqual([]);

    // Server usage: only with the token role connector:server.
    const before = target.requests.length;
    const refused = await proxy(id, {
      ...reader(USERS.contentUser),
      url: `${target.url}/srv`,
      usage: 'server',
    });
    expectStatus(refused, 403);
    expect(refused.body).toMatchObject({ status: 403, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(target.requests.length).toBe(before);

    expectStatus(await proxy(id, { ...serverCaller, url: `${target.url}/srv`, usage: 'server' }), 200);
    expect(target.last('/srv')?.headers.authorization).toBe(STATIC_SERVER);
    expect(target.last('/srv')?.headers['x-api-key']).toBeUndefined();
  });

  it('who may call: 401 without a token, 404 outside the caller’s environments, 403 for a host not allowed', async () => {
    const id = await publish({ allowedDomains: ['api.acme.example'], supportedAuth: [] });
    const before = target.requests.length;
    const path = `${connectorsPath}/${id}/proxy`;
    const anonymous = await tp.call(path, { headers: { 'x-grafx-proxy-external-url': `${target.url}/x` } });
    responses.push(await anonymous.text());
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // The outsider belongs to another subscription: the environment does not exist for them.
    expectStatus(await proxy(id, { ...reader(USERS.outsider), url: `${target.url}/x` }), 404);
    // The connector lives in acme-prod, not in acme-prod-us.
    const elsewhere = await tp.call(`/grafx/api/v1/environment/acme-prod-us/connectors/${id}/proxy`, {
      token: await tp.token(USERS.owner, ['platform:read']),
      headers: { 'x-grafx-proxy-external-url': `${target.url}/x` },
    });
    responses.push(await elsewhere.text());
    expect(elsewhere.status).toBe(404);
    const denied = await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/x` });
    expectStatus(denied, 403);
    expect(denied.body).toMatchObject({ status: 403, detail: expect.stringContaining('127.0.0.1') });
    // The proxy's own refusals say so, with their code (a client tells them from a target's 403 by it).
    expect(denied.headers.get('x-grafx-proxy-error')).toBe('FORBIDDEN');
    expect(target.requests.length).toBe(before);
  });

  it('shared headers, forwarded headers and the external method reach the target; a disabled connector does not', async () => {
    const id = await publish({ proxyOptions: { forwardedHeaders: true } });
    const shared = await rest<{ names: string[] }>('PUT', `${connectorsPath}/${id}/shared-headers`, {
      ...owner,
      body: { headers: { 'X-Tenant-Key': SHARED_VALUE } },
    });
    expectStatus(shared, 200);
    expect(shared.text).not.toContain(SHARED_VALUE);
    await setAuth(id, 'static', { usage: 'browser', key: 'X-Api-Key', value: STATIC_BROWSER });
    // The environment is named case-insensitively (docs/configuration.md).
    const response = await tp.call(`/grafx/api/v1/environment/ACME-PROD/connectors/${id}/proxy`, {
      method: 'POST',
      token: await tp.token(USERS.contentUser, ['platform:read']),
      headers: {
        'x-grafx-proxy-external-url': `${target.url}/details`,
        'x-grafx-proxy-external-method': 'PUT',
        'content-type': 'text/plain',
        // No load balancer is trusted (TRUSTED_PROXIES): the caller's own chain is not passed on.
        'x-forwarded-for': '203.0.113.9',
      },
      body: 'as put',
    });
    responses.push(await response.text());
    expect(response.status).toBe(200);
    const seen = target.last('/details');
    expect(seen).toMatchObject({ method: 'PUT', body: 'as put' });
    expect(seen?.headers['x-tenant-key']).toBe(SHARED_VALUE);
    expect(seen?.headers['x-api-key']).toBe(STATIC_BROWSER);
    expect(seen?.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen?.headers['x-forwarded-proto']).toBe('http');

    // The authorization-code login needs that type on the browser usage.
    const login = await rest('POST', `${connectorsPath}/${id}/auth/oauth-authorization-code/login`, owner);
    expectStatus(login, 400);
    expect(login.body).toMatchObject({ detail: expect.stringContaining('oAuth2AuthorizationCode') });

    expectStatus(await rest('PATCH', `${connectorsPath}/${id}`, { ...owner, body: { enabled: false } }), 200);
    const before = target.requests.length;
    const disabled = await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/details` });
    expectStatus(disabled, 403);
    expect(disabled.body).toMatchObject({ detail: expect.stringContaining('disabled') });
    expect(disabled.headers.get('x-grafx-proxy-error')).toBe('FORBIDDEN');
    expect(target.requests.length).toBe(before);
  });

  it('no authorization configured: a POST is still proxied, without the caller’s Authorization', async () => {
    const id = await publish({ supportedAuth: [] });
    const reply = await proxy(id, {
      ...reader(USERS.envAdmin),
      url: `${target.url}/plain`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n":1}',
    });
    expectStatus(reply, 200);
    expect(target.last('/plain')).toMatchObject({ method: 'POST', body: '{"n":1}' });
    expect(target.last('/plain')?.headers.authorization).toBeUndefined();

    // The proxy streams: bodies over the API's 1 MiB limit pass.
    const big = 'x'.repeat(3 * 1024 * 1024);
    const large = await proxy(id, {
      ...reader(USERS.envAdmin),
      url: `${target.url}/large`,
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: big,
    });
    expectStatus(large, 200);
    expect(large.body).toMatchObject({ method: 'PUT', bytes: big.length });
    expect(target.last('/large')?.body.length).toBe(big.length);
  });

  it('client credentials against oidc-provider: one token request, the token reused by later calls', async () => {
    const id = await publish();
    await setAuth(id, 'oauth-client-credentials', {
      usage: 'browser',
      clientId: oidcClients.clientCredentials.id,
      clientSecret: oidcClients.clientCredentials.secret,
      scope: 'api',
      tokenEndpoint: oidc.tokenEndpoint,
    });
    const before = grantsOf('client_credentials');
    for (let i = 0; i < 3; i++) {
      expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/cc` }), 200);
    }
    expect(grantsOf('client_credentials')).toBe(before + 1);
    expect(bearerAt('/cc')).toBe(`Bearer ${oidc.issued.at(-1)}`);
    // The token is kept (encrypted) in the store too, so another replica or a restart reuses it.
    expect(await tokenRows(id)).toEqual([{ usage: 'browser', userId: '' }]);
  });

  it('resource owner password against oidc-provider (form body), server usage', async () => {
    const id = await publish();
    await setAuth(id, 'oauth-resource-owner-password', {
      usage: 'server',
      clientId: oidcClients.password.id,
      clientSecret: oidcClients.password.secret,
      username: oidcClients.password.username,
      password: oidcClients.password.password,
      tokenEndpoint: oidc.tokenEndpoint,
    });
    const before = grantsOf('password');
    expectStatus(await proxy(id, { ...serverCaller, url: `${target.url}/pw`, usage: 'server' }), 200);
    expect(grantsOf('password')).toBe(before + 1);
    expect(bearerAt('/pw')).toBe(`Bearer ${oidc.issued.at(-1)}`);
  });

  it('resource owner password with bodyFormat applicationJson: a JSON body at the token endpoint', async () => {
    const id = await publish();
    await setAuth(id, 'oauth-resource-owner-password', {
      usage: 'browser',
      clientId: 'json-client',
      clientSecret: JSON_ENDPOINT_SECRET,
      username: 'json-user',
      password: JSON_ENDPOINT_PASSWORD,
      scope: 'read',
      bodyFormat: 'applicationJson',
      tokenEndpoint: `${tokenServer.url}/json-token`,
    });
    const before = tokenServer.requests.length;
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/json` }), 200);
    expect(tokenServer.requests.length).toBe(before + 1);
    const request = tokenServer.requests.at(-1);
    expect(request?.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(request?.body ?? '')).toMatchObject({
      grant_type: 'password',
      username: 'json-user',
      password: JSON_ENDPOINT_PASSWORD,
      scope: 'read',
    });
    expect(bearerAt('/json')).toBe(`Bearer ${tokenServer.issued.at(-1)}`);
  });

  it('JWT bearer against oidc-provider: the RS256 assertion is verified there, with the configured claims', async () => {
    const id = await publish();
    await setAuth(id, 'oauth-jwt-bearer', {
      usage: 'server',
      tokenEndpoint: oidc.tokenEndpoint,
      signatureConfig: { algorithm: 'RS256', privateKey: oidc.privateKeyPem },
      jwtPayload: { iss: 'e2e-connector', sub: 'svc@acme', aud: oidc.tokenEndpoint },
      requestBodyParams: { client_id: oidcClients.jwt.id, extra: 'hello-e2e' },
    });
    const before = oidc.assertions.length;
    expectStatus(await proxy(id, { ...serverCaller, url: `${target.url}/jwt`, usage: 'server' }), 200);
    expect(oidc.assertions.length).toBe(before + 1);
    expect(oidc.assertions.at(-1)).toMatchObject({
      iss: 'e2e-connector',
      sub: 'svc@acme',
      extra: 'hello-e2e',
    });
    expect(bearerAt('/jwt')).toBe(`Bearer ${oidc.issued.at(-1)}`);
  });

  it('authorization code: login → provider login and consent → platform redirect → completion; that user’s calls carry the token, logout drops it', async () => {
    const id = codeConnectorId;
    await setAuth(id, 'oauth-authorization-code', {
      usage: 'browser',
      clientId: oidcClients.code.id,
      clientSecret: oidcClients.code.secret,
      scope: 'api offline_access',
      authorizationServerMetadata: {
        authorization_endpoint: oidc.authorizationEndpoint,
        token_endpoint: oidc.tokenEndpoint,
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      },
    });
    const user = reader(USERS.contentUser);
    const other = reader(USERS.envAdmin);

    // Nobody logged in yet: 401 with the signal the connector runtime acts on.
    const early = await proxy(id, { ...user, url: `${target.url}/code` });
    expectStatus(early, 401);
    expect(early.headers.get('x-grafx-unauthorized')).toBe(`oAuth2AuthorizationCode, ${id}`);

    const login = await rest<{ authorizationUrl: string }>(
      'POST',
      `${connectorsPath}/${id}/auth/oauth-authorization-code/login`,
      user,
    );
    expectStatus(login, 200);
    const authorizationUrl = new URL(login.body.authorizationUrl);
    expect(authorizationUrl.origin).toBe(oidc.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('state')).toBeTruthy();
    const redirectUri = `${tp.url}${connectorsPath}/${id}/auth/oauth-authorization-code/redirect`;
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(redirectUri);

    const callback = await loginThroughBrowser(authorizationUrl.href, 'content-user');
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const codeGrants = grantsOf('authorization_code');
    // The browser follows the provider's redirect to the platform: no platform token, nothing stored there.
    const page = await fetch(callback);
    const html = await page.text();
    responses.push(html);
    expect(page.status, html).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(grantsOf('authorization_code')).toBe(codeGrants);
    // The window that opened the login completes it with the platform token of the user who started it.
    const completion = {
      state: callback.searchParams.get('state'),
      code: callback.searchParams.get('code'),
    };
    const completePath = `${connectorsPath}/${id}/auth/oauth-authorization-code/complete`;
    // As starting it, completing the login needs platform:read only: it touches the caller's own tokens.
    expect(user.roles).toEqual(['platform:read']);
    expectStatus(await rest('POST', completePath, { ...user, body: completion }), 204);
    expect(grantsOf('authorization_code')).toBe(codeGrants + 1);
    // The state is single use.
    expectStatus(await rest('POST', completePath, { ...user, body: completion }), 400);

    expectStatus(await proxy(id, { ...user, url: `${target.url}/code` }), 200);
    const bearer = bearerAt('/code');
    expect(bearer).toMatch(/^Bearer .+/);
    expect(oidc.issued).toContain(bearer?.slice('Bearer '.length));

    // Another platform user has no login of their own.
    const stranger = await proxy(id, { ...other, url: `${target.url}/code-other` });
    expectStatus(stranger, 401);
    expect(stranger.headers.get('x-grafx-unauthorized')).toBe(`oAuth2AuthorizationCode, ${id}`);
    expect(target.last('/code-other')).toBeUndefined();

    // The target refuses the token once: one retry with a fresh token (from the refresh token).
    target.refusals.set('/code-refused', 1);
    const refreshes = grantsOf('refresh_token');
    expectStatus(await proxy(id, { ...user, url: `${target.url}/code-refused` }), 200);
    expect(grantsOf('refresh_token')).toBe(refreshes + 1);
    expect(bearerAt('/code-refused')).not.toBe(bearer);

    const logout = await rest('POST', `${connectorsPath}/${id}/auth/oauth-authorization-code/logout`, user);
    expectStatus(logout, 204);
    expect((await tokenRows(id)).filter((row) => row.userId === USERS.contentUser)).toEqual([]);
    const after = await proxy(id, { ...user, url: `${target.url}/code` });
    expectStatus(after, 401);
    expect(after.headers.get('x-grafx-unauthorized')).toBe(`oAuth2AuthorizationCode, ${id}`);
  });

  it('replacing a usage’s type takes effect on the very next call', async () => {
    const id = await publish();
    await setAuth(id, 'static', { usage: 'browser', key: 'X-Api-Key', value: STATIC_BROWSER });
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/swap` }), 200);
    expect(target.last('/swap')?.headers['x-api-key']).toBe(STATIC_BROWSER);
    expect(target.last('/swap')?.headers.authorization).toBeUndefined();

    await setAuth(id, 'oauth-client-credentials', {
      usage: 'browser',
      clientId: oidcClients.clientCredentials.id,
      clientSecret: oidcClients.clientCredentials.secret,
      tokenEndpoint: oidc.tokenEndpoint,
    });
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/swap` }), 200);
    expect(target.last('/swap')?.headers['x-api-key']).toBeUndefined();
    expect(target.last('/swap')?.headers.authorization).toBe(`Bearer ${oidc.issued.at(-1)}`);

    const list = await rest<{ usage: string; type: string }[]>('GET', `${connectorsPath}/${id}/auth`, owner);
    expectStatus(list, 200);
    expect(list.body.map(({ usage, type }) => ({ usage, type }))).toEqual([
      { usage: 'browser', type: 'oAuth2ClientCredentials' },
    ]);
  });

  it('tokens survive a republish and setting or deleting the authorization again; DELETE drops them, and a re-published connector fetches its own', async () => {
    const auth = {
      usage: 'browser',
      clientId: oidcClients.clientCredentials.id,
      clientSecret: oidcClients.clientCredentials.secret,
      tokenEndpoint: oidc.tokenEndpoint,
    };
    const id = await publish({ name: 'Short-lived connector' });
    await setAuth(id, 'oauth-client-credentials', auth);
    const first = grantsOf('client_credentials');
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/gone` }), 200);
    expect(grantsOf('client_credentials')).toBe(first + 1);

    // Republishing (PUT) is not a reset (docs/connector-auth.md): the cached token is used again.
    const republished = await rest('PUT', `${connectorsPath}/${id}`, {
      ...owner,
      body: connectorBody({ name: 'Short-lived connector', version: '1.0.1' }),
    });
    expectStatus(republished, 200);
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/gone` }), 200);
    expect(grantsOf('client_credentials')).toBe(first + 1);
    expect(await tokenRows(id)).toHaveLength(1);

    // Nor is setting the authorization again, or deleting it and setting it once more (docs/connector-auth.md rule 4:
    // only deleting the connector resets cached tokens).
    const cached = bearerAt('/gone');
    await setAuth(id, 'oauth-client-credentials', auth);
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/gone` }), 200);
    expectStatus(await rest('DELETE', `${connectorsPath}/${id}/auth?authUsage=browser`, owner), 204);
    await setAuth(id, 'oauth-client-credentials', auth);
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/gone` }), 200);
    expect(grantsOf('client_credentials')).toBe(first + 1);
    expect(bearerAt('/gone')).toBe(cached);
    expect(await tokenRows(id)).toHaveLength(1);

    expectStatus(await rest('DELETE', `${connectorsPath}/${id}`, owner), 204);
    expect(await tokenRows(id)).toEqual([]);
    expectStatus(await proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/gone` }), 404);

    const again = await publish({ name: 'Short-lived connector' });
    await setAuth(again, 'oauth-client-credentials', auth);
    expectStatus(await proxy(again, { ...reader(USERS.contentUser), url: `${target.url}/gone` }), 200);
    expect(grantsOf('client_credentials')).toBe(first + 2);
    expect(bearerAt('/gone')).toBe(`Bearer ${oidc.issued.at(-1)}`);
  });

  it('50 concurrent cold calls make exactly one token request', async () => {
    const id = await publish();
    await setAuth(id, 'oauth-client-credentials', {
      usage: 'browser',
      clientId: 'concurrent-client',
      clientSecret: JSON_ENDPOINT_SECRET,
      tokenEndpoint: `${tokenServer.url}/concurrent-token`,
    });
    const before = tokenServer.requests.length;
    const seen = target.requests.length;
    tokenServer.delayMs = 100;
    try {
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          proxy(id, { ...reader(USERS.contentUser), url: `${target.url}/cold/${i}` }),
        ),
      );
      expect(replies.map((reply) => reply.status)).toEqual(Array(50).fill(200));
    } finally {
      tokenServer.delayMs = 0;
    }
    expect(tokenServer.requests.length).toBe(before + 1);
    const bearers = new Set(target.requests.slice(seen).map((r) => r.headers.authorization));
    expect([...bearers]).toEqual([`Bearer ${tokenServer.issued.at(-1)}`]);

    // The proxy's metrics are served with the platform's, by connector on the operators' listener.
    const metrics = await (await fetch(`${tp.platform.metricsUrl}/metrics`)).text();
    const count = (name: string) =>
      Number(
        metrics
          .split('\n')
          .find((line) => line.startsWith(name) && line.includes(`connector="${id}"`))
          ?.split(' ')
          .at(-1),
      );
    expect(count('connector_proxy_token_requests_total')).toBe(1);
    expect(count('connector_proxy_upstream_duration_seconds_count')).toBe(50);
  });

  it('no secret in any REST or proxy response, nor in any log line of the server', async () => {
    const secrets = [
      STATIC_BROWSER,
      STATIC_SERVER,
      JSON_ENDPOINT_SECRET,
      JSON_ENDPOINT_PASSWORD,
      SHARED_VALUE,
      oidcClients.clientCredentials.secret,
      oidcClients.password.secret,
      oidcClients.password.password,
      oidcClients.code.secret,
      'PRIVATE KEY',
      ...oidc.privateKeyPem.split('\n').filter((line) => line.length > 40),
      ...oidc.issued,
      ...tokenServer.issued,
    ];
    expect(responses.length).toBeGreaterThan(50);
    expect(tp.logs.length).toBeGreaterThan(10);
    const everything = [...responses, ...tp.logs].join('\n');
    for (const secret of secrets) expect(everything.includes(secret), secret).toBe(false);
  });

  it('every log line is one JSON object without duplicate keys; request lines name route, user and trace', () => {
    // Regression: the request log applied its props at the start and at the end of a request, so every request
    // line carried "route" (first "unmatched") and "traceId" twice; log stores such as Elasticsearch reject those.
    const lines = tp.logs.flatMap((chunk) => chunk.split('\n')).filter((line) => line !== '');
    const proxied = lines
      .map((line) => {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        expect(JSON.stringify(parsed), line).toBe(line);
        return parsed;
      })
      .filter(
        (entry) =>
          entry.route === `${connectorsPath.replace(ENVIRONMENT, '{environment}')}/{connectorId}/proxy`,
      );
    expect(proxied.length).toBeGreaterThan(50);
    expect(proxied.filter((entry) => entry.userId === USERS.contentUser).length).toBeGreaterThan(50);
    for (const entry of proxied) expect(entry.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe.each((await testBackends()).slice(0, 1))(
  'X-Forwarded-For behind a trusted load balancer on $name',
  (backend) => {
    let tp: TestPlatform;
    let target: Target;
    const { rest } = platformClient(() => tp);

    beforeAll(async () => {
      tp = await startTestPlatform(backend, { TRUSTED_PROXIES: '127.0.0.0/8' });
      await importDataFile(tp.database, fixture(new Date()));
      target = await startTarget();
    });
    afterAll(async () => {
      await tp?.close();
      await target?.close();
    });

    it('continues the chain the trusted balancer vouches for, and no further', async () => {
      const published = await rest<{ id: string }>('POST', connectorsPath, {
        ...owner,
        body: connectorBody({ proxyOptions: { forwardedHeaders: true } }),
      });
      expectStatus(published, 201);
      const call = async (forwardedFor: string) => {
        const response = await tp.call(
          `/grafx/api/v1/environment/${ENVIRONMENT}/connectors/${published.body.id}/proxy`,
          {
            token: await tp.token(USERS.contentUser, ['platform:read']),
            headers: { 'x-grafx-proxy-external-url': `${target.url}/chain`, 'x-forwarded-for': forwardedFor },
          },
        );
        expect(response.status).toBe(200);
        await response.text();
        return target.last('/chain')?.headers['x-forwarded-for'];
      };
      // The balancer (loopback, trusted) says it relays 192.0.2.1: that client, then the balancer itself.
      expect(await call('192.0.2.1')).toBe('192.0.2.1, 127.0.0.1');
      // What the client claimed before it reached the balancer is its own word, and is not passed on.
      expect(await call('203.0.113.9, 192.0.2.1')).toBe('192.0.2.1, 127.0.0.1');
      // A chain of trusted hops is kept whole up to the first untrusted one.
      expect(await call('192.0.2.1, 127.0.0.2')).toBe('192.0.2.1, 127.0.0.2, 127.0.0.1');
    });
  },
);
