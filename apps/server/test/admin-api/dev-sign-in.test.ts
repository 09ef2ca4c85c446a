import { createHash } from 'node:crypto';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const verifier = 'v'.repeat(50);
const challenge = createHash('sha256').update(verifier).digest('base64url');

const form = (values: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) for (const v of [value].flat()) body.append(key, v);
  return body;
};

describe.each((await testBackends()).slice(0, 1))(
  'the development issuer sign-in flow on $name',
  (backend) => {
    let tp: TestPlatform;
    let external: TestPlatform;
    const redirectUri = () => `${tp.url}/console/callback`;

    beforeAll(async () => {
      [tp, external] = await Promise.all([
        startTestPlatform(backend, { AUTH_ISSUER: '', DEMO_DATA: 'true' }),
        startTestPlatform(backend),
      ]);
    });
    afterAll(async () => {
      await Promise.all([tp?.close(), external?.close()]);
    });

    /** The sign-in page's address, with `values` laid over a valid authorization request. */
    const query = (values: Record<string, string>) =>
      `/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'platform-console',
        redirect_uri: redirectUri(),
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...values,
      })}`;

    /** Posts the sign-in form; the redirect back to the client (code or error). */
    const signIn = async (sub: string, roles = ['platform:read', 'platform:write']) => {
      const response = await tp.call('/oauth/authorize', {
        method: 'POST',
        redirect: 'manual',
        body: form({
          client_id: 'platform-console',
          redirect_uri: redirectUri(),
          state: 's1',
          code_challenge: challenge,
          nonce: 'n1',
          sub,
          roles,
        }),
      });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri());
      expect(location.searchParams.get('state')).toBe('s1');
      expect(location.searchParams.get('iss')).toBe(tp.url);
      return location.searchParams;
    };
    const authorize = async (sub: string, roles?: string[]) => (await signIn(sub, roles)).get('code') ?? '';
    const claimsOf = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

    const exchange = (code: string, codeVerifier = verifier) =>
      tp.call('/oauth/token', {
        method: 'POST',
        body: form({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri(),
          client_id: 'platform-console',
          code_verifier: codeVerifier,
        }),
      });

    it('lists its endpoints in the discovery document', async () => {
      const discovery = (await (await tp.call('/.well-known/openid-configuration')).json()) as Record<
        string,
        unknown
      >;
      expect(discovery).toMatchObject({
        issuer: tp.url,
        authorization_endpoint: `${tp.url}/oauth/authorize`,
        token_endpoint: `${tp.url}/oauth/token`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
      });
    });

    it('shows the sign-in page only to the console client with a redirect URI on the server and PKCE', async () => {
      const page = await tp.call(query({}));
      expect(page.status).toBe(200);
      // Never framed by another site (a framed sign-in could be clicked through by a decoy), and no script at all.
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      );
      expect(await page.text()).toContain('<form method="post" action="/oauth/authorize">');
      expect((await tp.call(query({ client_id: 'other' }))).status).toBe(400);
      const foreign = await tp.call(query({ redirect_uri: 'https://evil.example/cb' }), {
        redirect: 'manual',
      });
      expect(foreign.status).toBe(400);
      const plain = await tp.call(query({ code_challenge_method: 'plain' }), { redirect: 'manual' });
      expect(plain.status).toBe(303);
      expect(new URL(plain.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');
    });

    it('exchanges a code once, only with its PKCE verifier, for a token the API accepts', async () => {
      const refused = await exchange(await authorize('demo|owner'), 'w'.repeat(50));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });

      const code = await authorize('demo|owner');
      const granted = await exchange(code);
      expect(granted.status).toBe(200);
      expect(granted.headers.get('cache-control')).toBe('no-store');
      const tokens = (await granted.json()) as { access_token: string; id_token: string; token_type: string };
      expect(tokens.token_type).toBe('Bearer');
      expect(tokens.id_token.split('.')).toHaveLength(3);
      expect((await tp.call('/api/v1/subscriptions', { token: tokens.access_token })).status).toBe(200);

      const again = await exchange(code);
      expect(again.status).toBe(400);
      expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('signs in only users the database lists, with the fixed token roles whatever the form asks', async () => {
      for (const sub of ['attacker', 'ops|anyone', '']) {
        const refused = await signIn(sub, ['platform:read', 'platform:admin']);
        expect(refused.get('code')).toBeNull();
        expect(refused.get('error')).toBe('access_denied');
      }
      const granted = await exchange(await authorize('demo|owner', ['platform:admin', 'connector:server']));
      expect(granted.status).toBe(200);
      const token = ((await granted.json()) as { access_token: string }).access_token;
      expect(claimsOf(token)).toMatchObject({
        sub: 'demo|owner',
        roles: ['platform:read', 'platform:write'],
      });
    });

    it('lists display names and ids, no e-mail address and no token-role choice', async () => {
      const text = await (await tp.call(query({}))).text();
      expect(text).toContain('Demo Owner');
      expect(text).toContain('(demo|owner)');
      expect(text).not.toMatch(/@[a-z0-9-]+\.example/);
      expect(text).not.toContain('name="roles"');
    });

    it('does not exist when an external issuer is configured (as in production)', async () => {
      expect((await external.call('/oauth/authorize')).status).toBe(404);
      expect((await external.call('/oauth/token', { method: 'POST', body: form({}) })).status).toBe(404);
    });
  },
);
