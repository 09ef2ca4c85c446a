import { createHash } from 'node:crypto';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath, expectStatus, platformClient } from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { mediaConnector } from './connectors.ts';

const owner = { user: USERS.owner };
/** A member of the environment's subscription with the read role only. */
const reader = { user: USERS.member, roles: ['platform:read'] };

/** The fixture with the content user (ContentUser of the environment) disabled. */
const withDisabledUser = () => {
  const data = fixture(new Date());
  const user = data.users.find((u) => u.id === USERS.contentUser);
  if (!user) throw new Error('the fixture lists the content user');
  user.status = 'Disabled';
  return data;
};

/** A connector whose getCapabilities fetches: without connector:server, the fetch is refused. */
const fetchingCapabilities = `
export default class Fetching {
  constructor(runtime) { this.runtime = runtime; }
  async getCapabilities() {
    const response = await this.runtime.fetch(this.runtime.options.base + '/capabilities', { method: 'GET' });
    return JSON.parse(response.text);
  }
  getConfigurationOptions() { return null; }
  async getPage(config, context) { return { data: [], continuationToken: null }; }
  async getModel(context) { return { properties: [] }; }
}`;

describe.each(await testBackends())('who may run, and disabled users, on $name', (backend) => {
  let tp: TestPlatform;
  let upstream: Listening;
  let upstreamCalls = 0;
  const { rest } = platformClient(() => tp);

  beforeAll(async () => {
    tp = await startTestPlatform(backend);
    await importDataFile(tp.database, withDisabledUser());
    upstream = await listen((_req, res) => {
      upstreamCalls += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ query: true }));
    });
  });
  afterAll(async () => {
    await tp?.close();
    await upstream?.close();
  });

  const publish = async (script: string, type: 'media' | 'data') => {
    const reply = await rest<{ id: string }>('POST', connectorsPath, {
      ...owner,
      body: connectorBody({ script, type, options: { base: upstream.url } }),
    });
    expectStatus(reply, 201);
    return reply.body.id;
  };

  it('GET capabilities needs platform:read only', async () => {
    const id = await publish(mediaConnector, 'media');
    const capabilities = await rest<{ capabilities: unknown }>(
      'GET',
      `${connectorsPath}/${id}/capabilities`,
      reader,
    );
    expectStatus(capabilities, 200);
    expect(capabilities.body.capabilities).toMatchObject({ query: true, detail: true });
    // The other run routes still need connector:server for their default usage.
    expectStatus(
      await rest('POST', `${connectorsPath}/${id}/media/query`, { ...reader, body: { query: {} } }),
      403,
    );
  });

  it('capabilities fetch nothing for a caller without connector:server: such a fetch is refused', async () => {
    const id = await publish(fetchingCapabilities, 'data');
    const refused = await rest<{ code: string }>('GET', `${connectorsPath}/${id}/capabilities`, reader);
    expectStatus(refused, 502);
    expect(refused.body.code).toBe('FETCH_REFUSED');
    expect(upstreamCalls).toBe(0);
    const server = { user: USERS.member, roles: ['platform:read', 'connector:server'] };
    expectStatus(await rest('GET', `${connectorsPath}/${id}/capabilities`, server), 200);
    expect(upstreamCalls).toBe(1);
  });

  it('a Disabled user is refused with 403 on every route that needs a token; an active one is not', async () => {
    const id = await publish(mediaConnector, 'media');
    const roles = [
      'platform:read',
      'platform:write',
      'platform:admin',
      'platform:metrics',
      'connector:server',
    ];
    const disabled = await tp.token(USERS.contentUser, roles);
    const active = await tp.token(USERS.envAdmin, roles);
    const routes: [string, RequestInit][] = [
      ['/api/v1/subscriptions', {}],
      [`/api/v1/environments`, {}],
      [connectorsPath, {}],
      [`${connectorsPath}/${id}/capabilities`, {}],
      [
        `${connectorsPath}/${id}/media/query`,
        { method: 'POST', body: '{"query":{}}', headers: { 'content-type': 'application/json' } },
      ],
      [`${connectorsPath}/${id}/proxy`, { headers: { 'x-grafx-proxy-external-url': `${upstream.url}/x` } }],
      ['/trpc/subscriptions.list', {}],
      [`${connectorsPath}/${id}/auth/oauth-authorization-code/login`, { method: 'POST' }],
      ['/metrics', {}],
    ];
    for (const [path, init] of routes) {
      const refused = await tp.call(path, { ...init, token: disabled });
      const text = await refused.text();
      expect(refused.status, `${path}: ${text}`).toBe(403);
      expect(text).toContain('disabled');
      const admitted = await tp.call(path, { ...init, token: active });
      expect(admitted.status, path).not.toBe(403);
      expect(admitted.status, path).not.toBe(401);
    }
    // Routes that need no token stay open to the same caller.
    expect((await tp.call('/api/ping', { token: disabled })).status).toBe(200);
  });
});

describe.each((await testBackends()).slice(0, 1))(
  'the development sign-in and disabled users on $name',
  (backend) => {
    let tp: TestPlatform;
    beforeAll(async () => {
      tp = await startTestPlatform(backend, { AUTH_ISSUER: '' });
      await importDataFile(tp.database, withDisabledUser());
    });
    afterAll(() => tp?.close());

    const challenge = createHash('sha256').update('v'.repeat(50)).digest('base64url');
    const request = () => ({
      response_type: 'code',
      client_id: 'platform-console',
      redirect_uri: `${tp.url}/console/callback`,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    it('the sign-in page does not list a disabled user, and the form refuses them', async () => {
      const page = await (await tp.call(`/oauth/authorize?${new URLSearchParams(request())}`)).text();
      expect(page).toContain(USERS.envAdmin);
      expect(page).not.toContain(USERS.contentUser);
      const posted = await tp.call('/oauth/authorize', {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ ...request(), state: 's1', nonce: 'n1', sub: USERS.contentUser }),
      });
      expect(posted.status).toBe(303);
      const location = new URL(posted.headers.get('location') ?? '');
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('code')).toBeNull();
    });
  },
);
