import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { ENV_PROD, SUB_A, SUB_B, USERS } from '../support/fixture.ts';
import { json, seededPlatform } from '../support/seeded.ts';

const READ = ['platform:read'];
type Problem = { type: string; title: string; status: number; detail: string; traceId: string };

describe.each(await testBackends())('authentication and authorization on $name', (backend) => {
  const s = seededPlatform(backend);

  const expectProblem = async (response: Response, status: number) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await json<Problem>(response);
    expect(body).toMatchObject({ status, title: expect.any(String), type: expect.stringContaining('rfc') });
    expect(body.traceId).toMatch(/^[0-9a-f]{32}$/);
    return body;
  };

  it('needs no token for info, ping and ready', async () => {
    const info = await s.tp.call('/api/v1/info');
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({ data: { serverVersion: '1.0.0' } });
    const ping = await s.tp.call('/api/ping');
    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe('');
    const ready = await s.tp.call('/api/ready');
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe('');
  });

  it('answers 401 with WWW-Authenticate without a token', async () => {
    const response = await s.tp.call('/api/v1/subscriptions');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectProblem(response, 401);
  });

  const badTokens: [string, () => Promise<string>][] = [
    ['a bad signature', () => s.tp.issuer.sign({ sub: USERS.owner, roles: READ, rogue: true })],
    ['an expired token', () => s.tp.issuer.sign({ sub: USERS.owner, roles: READ, expiresIn: -120 })],
    ['a wrong audience', () => s.tp.issuer.sign({ sub: USERS.owner, roles: READ, audience: 'other-api' })],
    [
      'a wrong issuer',
      () => s.tp.issuer.sign({ sub: USERS.owner, roles: READ, issuer: 'https://evil.example' }),
    ],
    ['a token not yet valid', () => s.tp.issuer.sign({ sub: USERS.owner, roles: READ, notBefore: 600 })],
    ['no subject', () => s.tp.issuer.sign({ roles: READ })],
    [
      'no exp (a token must expire)',
      () => s.tp.issuer.sign({ sub: USERS.owner, roles: READ, noExpiry: true }),
    ],
    ['garbage', async () => 'not-a-jwt'],
  ];
  it.each(badTokens)('answers 401 invalid_token for %s', async (_name, make) => {
    const response = await s.tp.call('/api/v1/subscriptions', { token: await make() });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    await expectProblem(response, 401);
  });

  it('never remembers a token without exp: refused every time, on every route', async () => {
    const token = await s.tp.issuer.sign({
      sub: USERS.owner,
      roles: [...READ, 'platform:admin'],
      noExpiry: true,
    });
    for (const path of ['/api/v1/subscriptions', '/api/v1/subscriptions', '/metrics']) {
      const response = await s.tp.call(path, { token });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token".*exp/);
      await expectProblem(response, 401);
    }
  });

  it('says which claim a token lacks and what it must hold', async () => {
    const noAudience = await s.tp.issuer.sign({ sub: USERS.owner, roles: READ, audience: null });
    const refused = await s.tp.call('/api/v1/subscriptions', { token: noAudience });
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token".*no aud claim/);
    const problem = await expectProblem(refused, 401);
    expect(problem.detail).toContain('must name the audience this API accepts');
    expect(problem.detail).not.toContain('expire');
  });

  it('reads a verified token however the scheme is spelled, and nothing appended to it', async () => {
    const token = await s.tp.issuer.sign({ sub: USERS.owner, roles: READ });
    const as = (authorization: string) => s.tp.call('/api/v1/subscriptions', { headers: { authorization } });
    // Verified once, then answered from the cache of verified tokens: every spelling must still be judged alike.
    expect((await as(`Bearer ${token}`)).status).toBe(200);
    for (const spelling of [
      `bearer ${token}`,
      `BEARER ${token}`,
      `Bearer   ${token}  `,
      `Bearer\t${token}`,
    ]) {
      expect((await as(spelling)).status, spelling.slice(0, 9)).toBe(200);
    }
    for (const spelling of [
      `Bearer ${token}x`,
      `Bearer ${token} x`,
      `Bearer ${token}.`,
      `Bearer  ${token}!`,
    ]) {
      await expectProblem(await as(spelling), 401);
    }
  });

  it('answers 403 without the token role', async () => {
    const token = await s.tp.issuer.sign({ sub: USERS.owner, roles: ['something:else'] });
    await expectProblem(await s.tp.call('/api/v1/subscriptions', { token }), 403);
    const reader = await s.tp.issuer.sign({ sub: USERS.owner, roles: READ });
    const put = await s.tp.call(`/api/v1/subscriptions/${SUB_A}/external-idp-domains`, {
      method: 'PUT',
      token: reader,
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    await expectProblem(put, 403);
  });

  it('accepts the issuer spelled with a trailing slash', async () => {
    const token = await s.tp.issuer.sign({ sub: USERS.owner, roles: READ, issuer: `${s.tp.issuer.url}/` });
    expect((await s.tp.call('/api/v1/subscriptions', { token })).status).toBe(200);
  });

  it('accepts roles given as a space-separated scope', async () => {
    const token = await s.tp.issuer.sign({ sub: USERS.owner, scope: 'openid platform:read' });
    expect((await s.tp.call('/api/v1/subscriptions', { token })).status).toBe(200);
  });

  it('hides what a caller cannot see behind 404, never 403', async () => {
    const outsider = await s.tp.token(USERS.outsider, READ);
    await expectProblem(await s.tp.call(`/api/v1/subscriptions/${SUB_A}`, { token: outsider }), 404);
    await expectProblem(await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users`, { token: outsider }), 404);
    await expectProblem(
      await s.tp.call(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=year`, { token: outsider }),
      404,
    );
    const list = await json<{ guid: string }[]>(
      await s.tp.call('/api/v1/subscriptions', { token: outsider }),
    );
    expect(list.map((x) => x.guid)).toEqual([SUB_B]);
  });

  it('lets a member read but not administer', async () => {
    const member = await s.tp.token(USERS.member, ['platform:read', 'platform:write']);
    expect((await s.tp.call(`/api/v1/subscriptions/${SUB_A}`, { token: member })).status).toBe(200);
    await expectProblem(await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users`, { token: member }), 403);
    await expectProblem(
      await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users/${encodeURIComponent(USERS.owner)}`, {
        token: member,
      }),
      403,
    );
    const put = await s.tp.call(`/api/v1/subscriptions/${SUB_A}/external-idp-domains`, {
      method: 'PUT',
      token: member,
      headers: { 'content-type': 'application/json' },
      body: '["x.example"]',
    });
    await expectProblem(put, 403);
  });

  it('makes a subscription visible through an environment role alone', async () => {
    const contentUser = await s.tp.token(USERS.contentUser, READ);
    const list = await json<{ guid: string }[]>(
      await s.tp.call('/api/v1/subscriptions', { token: contentUser }),
    );
    expect(list.map((x) => x.guid)).toEqual([SUB_A]);
    const envs = await json<{ technicalName: string }[]>(
      await s.tp.call('/api/v1/environments', { token: contentUser }),
    );
    expect(envs.map((e) => e.technicalName)).toEqual(['acme-prod']);
    // The subscription's detail lists the environments it may see, no other: nothing of one it cannot see shows.
    const detail = await s.tp.call(`/api/v1/subscriptions/${SUB_A}`, { token: contentUser });
    expect(detail.status).toBe(200);
    const { environments } = await json<{ environments: { guid: string }[] }>(detail);
    expect(environments.map((e) => e.guid)).toEqual([ENV_PROD]);
    const trpc = await s.tp.call(
      `/trpc/subscriptions.get?input=${encodeURIComponent(JSON.stringify({ subscriptionId: SUB_A }))}`,
      { token: contentUser },
    );
    const viaTrpc = await json<{ result: { data: { environments: { guid: string }[] } } }>(trpc);
    expect(viaTrpc.result.data.environments.map((e) => e.guid)).toEqual([ENV_PROD]);
    // An owner still gets every one.
    const owner = await s.tp.token(USERS.owner, READ);
    const full = await json<{ environments: { guid: string }[] }>(
      await s.tp.call(`/api/v1/subscriptions/${SUB_A}`, { token: owner }),
    );
    expect(full.environments).toHaveLength(4);
  });

  it('lets an operator see every subscription as an owner would', async () => {
    const operator = await s.tp.token('ops|root', ['platform:read', 'platform:admin']);
    const list = await json<{ id: number }[]>(await s.tp.call('/api/v1/subscriptions', { token: operator }));
    expect(list.map((x) => x.id)).toEqual([501, 502]);
    expect((await s.tp.call(`/api/v1/subscriptions/${SUB_B}/users`, { token: operator })).status).toBe(200);
  });
});
