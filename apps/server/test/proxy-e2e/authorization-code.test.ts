import { generateKeyPairSync } from 'node:crypto';
import { loginThroughBrowser, type Oidc, startOidc } from '@platform/proxy/testing';
import { importDataFile, schema } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTarget, type Target } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import {
  authorizationCodeBody,
  type Caller,
  connectorBody,
  connectorsPath,
  expectStatus,
  platformClient,
} from './support.ts';

// Completing a login is a write (platform:write); starting one and using the connector need only platform:read.
const carol = { user: USERS.envAdmin, roles: ['platform:read', 'platform:write'] };
const alice = { user: USERS.contentUser, roles: ['platform:read', 'platform:write'] };

/** The JSON block the redirect page hands to its script: the message and the origin it is posted to. */
const pageData = (html: string) => {
  const json = /<script type="application\/json" id="result">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? 'null') as { origin: string; message: Record<string, unknown> };
};

describe.each(await testBackends())(
  'authorization-code completion through the server on $name',
  (backend) => {
    let tp: TestPlatform;
    let oidc: Oidc;
    let target: Target;
    let id: string;
    const { rest, proxy } = platformClient(() => tp);
    const base = () => `${connectorsPath}/${id}/auth/oauth-authorization-code`;
    const tokenRows = () =>
      tp.database.db
        .select({ userId: schema.connectorTokens.userId })
        .from(schema.connectorTokens)
        .where(eq(schema.connectorTokens.connectorId, id));
    const codeGrants = () => oidc.grants.get('authorization_code') ?? 0;
    const login = async (who: Caller) => {
      const reply = await rest<{ authorizationUrl: string }>('POST', `${base()}/login`, who);
      expectStatus(reply, 200);
      return reply.body.authorizationUrl;
    };

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      await importDataFile(tp.database, fixture(new Date()));
      target = await startTarget();
      const published = await rest<{ id: string }>('POST', connectorsPath, {
        user: USERS.owner,
        body: connectorBody(),
      });
      expectStatus(published, 201);
      id = published.body.id;
      oidc = await startOidc([`${tp.url}${base()}/redirect`], 'client_secret_basic');
      const set = await rest('PUT', base(), {
        user: USERS.owner,
        body: authorizationCodeBody(oidc),
      });
      expectStatus(set, 200);
    });
    afterAll(async () => {
      await tp?.close();
      await Promise.all([oidc?.close(), target?.close()]);
    });

    it('a login link shared with another user: the redirect stores nothing, her completion is refused (403) and burns the state', async () => {
      const grants = codeGrants();
      // Carol starts a login and sends the link to Alice, who signs in at the provider.
      const callback = await loginThroughBrowser(await login(carol), 'alice-at-provider');
      const page = await fetch(callback);
      const html = await page.text();
      expect(page.status, html).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(pageData(html)).toEqual({
        origin: new URL(tp.url).origin,
        message: {
          type: 'grafx-oauth-authorization-code',
          state: callback.searchParams.get('state'),
          code: callback.searchParams.get('code'),
        },
      });
      expect(codeGrants()).toBe(grants);
      expect(await tokenRows()).toEqual([]);

      // Alice's page posts the code to her own window, which completes with her platform token: not her login.
      const body = { state: callback.searchParams.get('state'), code: callback.searchParams.get('code') };
      const refused = await rest('POST', `${base()}/complete`, { ...alice, body });
      expectStatus(refused, 403);
      expect(codeGrants()).toBe(grants);
      expect(await tokenRows()).toEqual([]);
      // The state is burnt: Carol cannot use the code Alice's page handed out either.
      expectStatus(await rest('POST', `${base()}/complete`, { ...carol, body }), 400);
      expect(await tokenRows()).toEqual([]);
      const carolCall = await proxy(id, { ...carol, url: `${target.url}/as-carol` });
      expectStatus(carolCall, 401);
      expect(target.last('/as-carol')).toBeUndefined();
    });

    it('the rightful user completes (204) and the proxy injects her token, not anyone else’s', async () => {
      const callback = await loginThroughBrowser(await login(alice), 'alice-at-provider');
      const body = { state: callback.searchParams.get('state'), code: callback.searchParams.get('code') };
      // A body that is not {state, code} is refused before anything is consumed.
      expectStatus(await rest('POST', `${base()}/complete`, { ...alice, body: { state: body.state } }), 400);
      expectStatus(await rest('POST', `${base()}/complete`, { ...alice, body }), 204);
      expect((await tokenRows()).map((row) => row.userId)).toEqual([USERS.contentUser]);
      expectStatus(await proxy(id, { ...alice, url: `${target.url}/as-alice` }), 200);
      expect(target.last('/as-alice')?.headers.authorization).toBe(`Bearer ${oidc.issued.at(-1)}`);
      expectStatus(await proxy(id, { ...carol, url: `${target.url}/as-carol` }), 401);
    });

    it('without a token the redirect answers the same page (200, HTML) for an unknown environment, connector or state', async () => {
      const known = `${tp.url}${base()}/redirect`;
      const urls = [
        `${tp.url}/grafx/api/v1/environment/no-such-env/connectors/${id}/auth/oauth-authorization-code/redirect?state=x&code=y`,
        `${tp.url}/grafx/api/v1/environment/globex-prod/connectors/${id}/auth/oauth-authorization-code/redirect?state=x&code=y`,
        `${tp.url}${connectorsPath}/00000000-0000-4000-8000-000000000000/auth/oauth-authorization-code/redirect?state=x&code=y`,
        `${tp.url}${connectorsPath}/not-a-uuid/auth/oauth-authorization-code/redirect?state=x&code=y`,
        `${known}?state=unknown-state&code=y`,
        `${known}?code=y`,
        known,
      ];
      const replies = await Promise.all(
        urls.map(async (url) => {
          const response = await fetch(url);
          return {
            status: response.status,
            type: response.headers.get('content-type'),
            body: await response.text(),
          };
        }),
      );
      for (const reply of replies) expect(reply).toEqual(replies[0]);
      expect(replies[0]?.status).toBe(200);
      expect(replies[0]?.type).toMatch(/^text\/html/);
      expect(pageData(replies[0]?.body ?? '').message).toEqual({
        type: 'grafx-oauth-authorization-code',
        error: 'invalid_state',
      });
    });

    it('a provider error reaches the opener as an HTML page naming it; nothing is stored', async () => {
      const authorizationUrl = new URL(await login(alice));
      const state = authorizationUrl.searchParams.get('state') ?? '';
      const rows = await tokenRows();
      const response = await fetch(`${tp.url}${base()}/redirect?state=${state}&error=access_denied`);
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(html).toContain('access_denied');
      expect(pageData(html).message).toEqual({
        type: 'grafx-oauth-authorization-code',
        state,
        error: 'access_denied',
      });
      expect(await tokenRows()).toEqual(rows);
    });
  },
);

describe.each((await testBackends()).slice(0, 1))(
  'authorization-code endpoints must be https on $name',
  (backend) => {
    let tp: TestPlatform;
    let id: string;
    const { rest } = platformClient(() => tp);
    const auth = (kind: string) => `${connectorsPath}/${id}/auth/${kind}`;
    const codeData = (authorization: string, token: string) => ({
      usage: 'browser',
      clientId: 'client',
      clientSecret: 'secret-value-9f1c',
      authorizationServerMetadata: {
        authorization_endpoint: authorization,
        token_endpoint: token,
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      },
    });

    beforeAll(async () => {
      tp = await startTestPlatform(backend, { PROXY_ALLOW_PRIVATE_NETWORKS: 'false' });
      await importDataFile(tp.database, fixture(new Date()));
      const published = await rest<{ id: string }>('POST', connectorsPath, {
        user: USERS.owner,
        body: connectorBody(),
      });
      expectStatus(published, 201);
      id = published.body.id;
    });
    afterAll(() => tp?.close());

    it('PUT refuses http:// token and authorization endpoints, naming the fields', async () => {
      const code = await rest<{ errors: Record<string, string[]> }>('PUT', auth('oauth-authorization-code'), {
        user: USERS.owner,
        body: codeData('http://idp.example/authorize', 'http://idp.example/token'),
      });
      expectStatus(code, 400);
      expect(Object.keys(code.body.errors).sort()).toEqual([
        'authorizationServerMetadata.authorization_endpoint',
        'authorizationServerMetadata.token_endpoint',
      ]);
      const endpointOnly = {
        'oauth-client-credentials': { clientId: 'c', clientSecret: 's' },
        'oauth-resource-owner-password': { clientId: 'c', clientSecret: 's', username: 'u', password: 'p' },
        'oauth-jwt-bearer': {
          signatureConfig: {
            algorithm: 'RS256',
            privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 })
              .privateKey.export({ type: 'pkcs8', format: 'pem' })
              .toString(),
          },
          jwtPayload: { iss: 'x' },
        },
      };
      for (const [kind, data] of Object.entries(endpointOnly)) {
        const reply = await rest<{ errors: Record<string, string[]> }>('PUT', auth(kind), {
          user: USERS.owner,
          body: { usage: 'server', ...data, tokenEndpoint: 'http://idp.example/token' },
        });
        expectStatus(reply, 400);
        expect(Object.keys(reply.body.errors)).toEqual(['tokenEndpoint']);
      }
      // Every bad field at once: the endpoint's rule is not left until the rest of the body is valid.
      const incomplete = await rest<{ errors: Record<string, string[]> }>(
        'PUT',
        auth('oauth-client-credentials'),
        {
          user: USERS.owner,
          body: { usage: 'server', clientSecret: 's', tokenEndpoint: 'http://idp.example/t' },
        },
      );
      expectStatus(incomplete, 400);
      expect(incomplete.body.errors).toEqual({
        clientId: [expect.any(String)],
        tokenEndpoint: ['must be an https:// URL'],
      });
      // A value that is no URL at all is named once, by the schema.
      const notUrl = await rest<{ errors: Record<string, string[]> }>(
        'PUT',
        auth('oauth-client-credentials'),
        {
          user: USERS.owner,
          body: { usage: 'server', clientId: 'c', clientSecret: 's', tokenEndpoint: 'token' },
        },
      );
      expectStatus(notUrl, 400);
      expect(notUrl.body.errors).toEqual({ tokenEndpoint: [expect.any(String)] });
      expectStatus(
        await rest('PUT', auth('oauth-authorization-code'), {
          user: USERS.owner,
          body: codeData('https://idp.example/authorize', 'https://idp.example/token'),
        }),
        200,
      );
    });

    it('login, redirect and completion never answer 500, even over an http endpoint stored earlier', async () => {
      const owner = { user: USERS.owner, roles: ['platform:read', 'platform:write'] };
      const started = await rest<{ authorizationUrl: string }>(
        'POST',
        `${auth('oauth-authorization-code')}/login`,
        owner,
      );
      expectStatus(started, 200);
      const state = new URL(started.body.authorizationUrl).searchParams.get('state');
      // The token endpoint is not reachable (not public): the completion answers what the proxy would, never 500.
      const completed = await rest('POST', `${auth('oauth-authorization-code')}/complete`, {
        ...owner,
        body: { state, code: 'some-code' },
      });
      expect([403, 502]).toContain(completed.status);

      // An endpoint stored as http (before the rule, or while private networks were allowed).
      const [row] = await tp.database.db
        .select()
        .from(schema.connectorAuth)
        .where(eq(schema.connectorAuth.connectorId, id));
      const publicData = structuredClone(row?.publicData ?? {}) as {
        authorizationServerMetadata: Record<string, string>;
      };
      publicData.authorizationServerMetadata.authorization_endpoint = 'http://idp.example/authorize';
      await tp.database.db
        .update(schema.connectorAuth)
        .set({ publicData, revision: (row?.revision ?? 0) + 1000 })
        .where(eq(schema.connectorAuth.connectorId, id));
      // The proxy reads a connector's configuration again after its one-second cache.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const refused = await rest<{ errors: Record<string, string[]> }>(
        'POST',
        `${auth('oauth-authorization-code')}/login`,
        owner,
      );
      expectStatus(refused, 400);
      expect(refused.body.errors).toHaveProperty('authorizationServerMetadata.authorization_endpoint');
      const redirect = await fetch(
        `${tp.url}${auth('oauth-authorization-code')}/redirect?state=${state}&code=c`,
      );
      expect(redirect.status).toBe(200);
      expect(pageData(await redirect.text()).message).toMatchObject({ error: 'invalid_state' });
      expectStatus(
        await rest('POST', `${auth('oauth-authorization-code')}/complete`, {
          ...owner,
          body: { state, code: 'c' },
        }),
        400,
      );
    });
  },
);
