import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen, startTarget, type Target } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { connectorBody, connectorsPath, expectStatus, platformClient } from './support.ts';

const SHARED_VALUE = 'shared-header-secret-71c0d2';
const STATIC_VALUE = 'static-credential-secret-0b9e44';
const reader = { user: USERS.contentUser, roles: ['platform:read'] };

const expectSandboxed = (headers: Headers) => {
  expect(headers.get('content-security-policy')).toBe('sandbox');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
};

describe.each((await testBackends()).slice(0, 1))('what proxied answers may carry, on $name', (backend) => {
  let tp: TestPlatform;
  let elsewhere: Target;
  let origin: Listening;
  let id: string;
  const { rest, proxy } = platformClient(() => tp);

  beforeAll(async () => {
    tp = await startTestPlatform(backend);
    await importDataFile(tp.database, fixture(new Date()));
    // Another origin (another port of the same allowed host): where a redirect of the origin leads.
    elsewhere = await startTarget();
    origin = await listen((req, res) => {
      const seen = JSON.stringify({
        shared: req.headers['x-shared'] ?? null,
        key: req.headers['x-key'] ?? null,
      });
      if (req.url === '/away') {
        res.writeHead(302, { location: `${elsewhere.url}/landed`, 'x-request-id': seen });
        res.end();
      } else if (req.url === '/here') {
        res.writeHead(302, { location: '/stayed' });
        res.end();
      } else {
        res.writeHead(200, {
          'content-type': 'text/html',
          'set-cookie': ['session=target-cookie; Path=/', 'other=1'],
          'content-security-policy': "script-src 'unsafe-inline'",
          'x-request-id': seen,
        });
        res.end('<script>document.cookie</script>');
      }
    });
    const published = await rest<{ id: string }>('POST', connectorsPath, {
      user: USERS.owner,
      body: connectorBody(),
    });
    expectStatus(published, 201);
    id = published.body.id;
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/shared-headers`, {
        user: USERS.owner,
        body: { headers: { 'X-Shared': SHARED_VALUE } },
      }),
      200,
    );
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/auth/static`, {
        user: USERS.owner,
        body: { usage: 'browser', key: 'X-Key', value: STATIC_VALUE },
      }),
      200,
    );
  });
  afterAll(async () => {
    await tp?.close();
    await Promise.all([elsewhere?.close(), origin?.close()]);
  });

  it('shared headers, like the credential, go to the original origin only', async () => {
    expectStatus(await proxy(id, { ...reader, url: `${origin.url}/here` }), 200);
    const away = await proxy(id, {
      ...reader,
      url: `${origin.url}/away`,
      headers: { 'x-shared': 'from-script' },
    });
    expectStatus(away, 200);
    const landed = elsewhere.last('/landed');
    expect(landed).toBeDefined();
    expect(landed?.headers['x-key']).toBeUndefined();
    // The script's own value may follow; the connector owner's secret value may not.
    expect(landed?.headers['x-shared']).toBe('from-script');
    expect(JSON.stringify(landed?.headers)).not.toContain(SHARED_VALUE);
    expect(JSON.stringify(elsewhere.requests)).not.toContain(STATIC_VALUE);
  });

  it('a target’s Set-Cookie is dropped; its answer is sandboxed and never sniffed', async () => {
    const reply = await proxy(id, { ...reader, url: `${origin.url}/page` });
    expectStatus(reply, 200);
    expect(reply.headers.get('set-cookie')).toBeNull();
    expect(reply.headers.getSetCookie()).toEqual([]);
    expectSandboxed(reply.headers);
    expect(reply.headers.get('content-type')).toBe('text/html');
    // The origin itself got both values.
    expect(JSON.parse(reply.headers.get('x-request-id') ?? '{}')).toEqual({
      shared: SHARED_VALUE,
      key: STATIC_VALUE,
    });
  });

  it('the proxy’s own errors carry the same headers', async () => {
    const refused = await proxy(id, { ...reader, url: 'http://not-allowed.example/' });
    expectStatus(refused, 403);
    expectSandboxed(refused.headers);
    const badHeader = await proxy(id, { ...reader, url: 'not a url' });
    expectStatus(badHeader, 400);
    expectSandboxed(badHeader.headers);
    const anonymous = await tp.call(`${connectorsPath}/${id}/proxy`, {
      headers: { 'x-grafx-proxy-external-url': `${origin.url}/page` },
    });
    expect(anonymous.status).toBe(401);
    expectSandboxed(anonymous.headers);
    const unknown = await proxy('00000000-0000-4000-8000-000000000000', {
      ...reader,
      url: `${origin.url}/page`,
    });
    expectStatus(unknown, 404);
    expectSandboxed(unknown.headers);
  });
});
