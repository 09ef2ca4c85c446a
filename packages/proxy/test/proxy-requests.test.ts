import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { RuntimeError } from '@platform/runtime';
import type { SecretBox } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  environmentId,
  insertConnector,
  newSecrets,
  seedEnvironment,
  setAuth,
  setSharedHeaders,
} from './support/database.ts';
import { type Harness, startProxy } from './support/harness.ts';
import { startTarget, type Target } from './support/servers.ts';

// On the embedded database only: the proxy's request handling reads a connector's configuration and nothing more from
// it; the token grants and their storage (oauth-grants, token-resilience) run on both backends.
const backends = (await testBackends()).slice(0, 1);

describe.each(backends)('proxy requests on $name', (backend) => {
  let database: TestDatabase;
  let secrets: SecretBox;
  let target: Target;
  let harness: Harness;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    database = await backend.fresh();
    secrets = newSecrets();
    await seedEnvironment(database);
    target = await startTarget();
    harness = await startProxy(database, secrets);
    closers.push(
      () => harness.close(),
      () => target.close(),
      () => database.close(),
    );
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('proxies without authorization, dropping the caller Authorization, x-grafx-*, hop-by-hop and excluded headers', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    const response = await harness.call(id, {
      url: `${target.url}/things?q=1`,
      headers: {
        'x-custom': 'kept',
        'x-drop-me': 'gone',
        'x-also-drop': 'gone',
        'x-grafx-proxy-exclude-headers': 'X-Drop-Me, x-also-drop',
        'x-grafx-anything': 'gone',
        cookie: 'platform-session=secret',
        'proxy-authorization': 'Basic gone',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toBe('target-answer');
    const seen = target.requests.at(-1)!;
    expect(seen.path).toBe('/things?q=1');
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers['x-custom']).toBe('kept');
    for (const name of [
      'x-drop-me',
      'x-also-drop',
      'x-grafx-anything',
      'cookie',
      'proxy-authorization',
      'x-forwarded-for',
    ]) {
      expect(seen.headers[name]).toBeUndefined();
    }
    expect(Object.keys(seen.headers).some((n) => n.startsWith('x-grafx-'))).toBe(false);
  });

  it('injects a static key, shared headers and, when asked, X-Forwarded-*', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'], forwardedHeaders: true });
    await setAuth(database, secrets, id, 'browser', 'staticKey', {
      key: 'X-Api-Key',
      value: 'static-secret-1234',
    });
    await setSharedHeaders(database, secrets, id, { 'X-Tenant': 'acme' });
    const response = await harness.call(id, {
      url: `${target.url}/a`,
      // No load balancer is trusted here: a caller's own chain is not passed on as if it were true.
      headers: {
        'x-api-key': 'caller-value',
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-host': 'evil.example',
      },
    });
    expect(response.status).toBe(200);
    const seen = target.requests.at(-1)!;
    expect(seen.headers['x-api-key']).toBe('static-secret-1234');
    expect(seen.headers['x-tenant']).toBe('acme');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-forwarded-host']).toBe(`127.0.0.1:${harness.port}`);
    expect(seen.headers.authorization).toBeUndefined();
    expect(response.text).not.toContain('static-secret-1234');
    expect(harness.lines.join('\n')).not.toContain('static-secret-1234');
  });

  it('uses the server usage only with the connector:server role', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'server', 'staticKey', {
      key: 'X-Server-Key',
      value: 'server-secret-99',
    });
    const refused = await harness.call(id, { url: `${target.url}/s`, usage: 'server' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ status: 403, traceId: expect.any(String) });
    const allowed = await harness.call(id, {
      url: `${target.url}/s`,
      usage: 'server',
      roles: ['platform:read', 'connector:server'],
    });
    expect(allowed.status).toBe(200);
    expect(target.requests.at(-1)!.headers['x-server-key']).toBe('server-secret-99');
    // The browser usage has no authorization configured: nothing injected.
    await harness.call(id, { url: `${target.url}/b` });
    expect(target.requests.at(-1)!.headers['x-server-key']).toBeUndefined();
  });

  it('proxies every method with bodies both ways, small (buffered) and large (streamed)', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    target.routes.set('/echo', (_req, res, recorded) => {
      res.writeHead(201, { 'content-type': 'application/octet-stream' });
      res.end(recorded.body);
    });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await harness.call(id, {
        url: `${target.url}/echo`,
        method,
        body: `payload ${method}`,
      });
      expect(response.status).toBe(201);
      expect(response.text).toBe(`payload ${method}`);
      expect(target.requests.at(-1)!.method).toBe(method);
    }
    const large = Buffer.alloc(3 * 1024 * 1024, 'x');
    const response = await harness.call(id, { url: `${target.url}/echo`, method: 'POST', body: large });
    expect(response.status).toBe(201);
    expect(response.text.length).toBe(large.length);
    // x-grafx-proxy-external-method overrides the request's own method.
    await harness.call(id, { url: `${target.url}/m`, method: 'POST', externalMethod: 'put', body: 'x' });
    expect(target.requests.at(-1)!.method).toBe('PUT');
  });

  it('streams a large response with backpressure; a caller leaving mid-body drops the target request', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    const chunk = Buffer.alloc(64 * 1024, 'y');
    // Writes `count` chunks (endless when undefined), each after the previous one drained.
    const writeChunks = async (res: ServerResponse, count?: number) => {
      for (let i = 0; count === undefined || i < count; i++) {
        if (res.destroyed) return;
        if (!res.write(chunk)) await once(res, 'drain').catch(() => {});
      }
      res.end();
    };
    target.routes.set('/large', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      void writeChunks(res, 128);
    });
    const large = await harness.call(id, { url: `${target.url}/large` });
    expect(large.status).toBe(200);
    expect(large.text.length).toBe(128 * chunk.length);

    let targetClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => {
      targetClosed = resolve;
    });
    target.routes.set('/endless', (_req, res) => {
      res.on('close', targetClosed);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      void writeChunks(res);
    });
    const caller = httpRequest(`${harness.url}/connectors/${id}/proxy`, {
      headers: { 'x-grafx-proxy-external-url': `${target.url}/endless` },
    });
    caller.end();
    const [response] = (await once(caller, 'response')) as [IncomingMessage];
    expect(response.statusCode).toBe(200);
    await once(response, 'data');
    caller.destroy();
    await closed;
    await vi.waitFor(() => expect(harness.lines.join('')).toContain('the caller closed the connection'));
  });

  it('answers 400 for a missing or non-http target URL, 404 for an unknown connector, 403 when disabled', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    const noUrl = await harness.call(id, { url: '' });
    expect(noUrl.status).toBe(400);
    expect(noUrl.headers['content-type']).toBe('application/json');
    expect((await harness.call(id, { url: 'ftp://127.0.0.1/x' })).status).toBe(400);
    expect((await harness.call(id, { url: '/relative' })).status).toBe(400);
    expect((await harness.call('00000000-0000-4000-8000-000000000000', { url: target.url })).status).toBe(
      404,
    );
    expect((await harness.call('not-a-uuid', { url: target.url })).status).toBe(404);
    const disabled = await insertConnector(database, { allowedDomains: ['127.0.0.1'], enabled: false });
    expect((await harness.call(disabled, { url: target.url })).status).toBe(403);
  });

  it('refuses hosts outside allowedDomains, with wildcards matching subdomains only', async () => {
    const id = await insertConnector(database, { allowedDomains: ['*.localhost', 'example.com'] });
    const refused = await harness.call(id, { url: `${target.url}/x` });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).detail).toContain('allowedDomains');
    expect(target.requests).toHaveLength(0);
  });

  it("checks one target URL against each connector's own allowedDomains, whichever passed it before", async () => {
    // The same header text: one parsed URL, and the checks it passed kept with it, per allowedDomains list.
    const allowing = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    const other = await insertConnector(database, { allowedDomains: ['example.com'] });
    const url = `${target.url}/same`;
    expect((await harness.call(allowing, { url })).status).toBe(200);
    const refused = await harness.call(other, { url });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).detail).toContain('allowedDomains');
    expect((await harness.call(allowing, { url })).status).toBe(200);
    expect(target.requests.map((seen) => seen.path)).toEqual(['/same', '/same']);
  });

  it('follows redirects itself, re-checking each hop, at most 5', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'staticKey', {
      key: 'X-Api-Key',
      value: 'static-secret-1234',
    });
    target.routes.set('/r1', (_req, res) => {
      res.writeHead(302, { location: '/r2' });
      res.end();
    });
    target.routes.set('/r2', (_req, res) => {
      res.writeHead(307, { location: `${target.url}/final` });
      res.end();
    });
    const ok = await harness.call(id, { url: `${target.url}/r1` });
    expect(ok.status).toBe(200);
    expect(target.requests.map((r) => r.path)).toEqual(['/r1', '/r2', '/final']);
    expect(target.requests.at(-1)!.headers['x-api-key']).toBe('static-secret-1234');

    target.routes.set('/away', (_req, res) => {
      res.writeHead(301, { location: 'http://evil.example.net/steal' });
      res.end();
    });
    expect((await harness.call(id, { url: `${target.url}/away` })).status).toBe(403);

    target.routes.set('/loop', (_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    });
    const loop = await harness.call(id, { url: `${target.url}/loop` });
    expect(loop.status).toBe(502);
    expect(JSON.parse(loop.text).detail).toContain('redirected more than 5 times');
  });

  it('maps an unreachable target to 502 and a slow one to 504', async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    const closed = await startTarget();
    await closed.close();
    expect((await harness.call(id, { url: `${closed.url}/x` })).status).toBe(502);
    target.routes.set('/slow', () => {});
    const slow = await harness.call(id, { url: `${target.url}/slow` });
    expect(slow.status).toBe(504);
  });
  // The two proxy headers real connectors send, over HTTP and through the in-process adapter the runtime uses.
  const staticKeyConnector = async () => {
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'browser', 'staticKey', {
      key: 'X-Api-Key',
      value: 'static-secret-1234',
    });
    return id;
  };

  it('X-GraFx-Proxy-User-Agent sets the upstream User-Agent', async () => {
    const id = await staticKeyConnector();
    await harness.call(id, {
      url: `${target.url}/ua`,
      headers: { 'x-grafx-proxy-user-agent': 'connector/1.0' },
    });
    expect(target.requests.at(-1)!.headers['user-agent']).toBe('connector/1.0');
  });

  it('X-GraFx-Proxy-Exclude-Headers: Authorization sends the request without the injected credentials', async () => {
    const id = await staticKeyConnector();
    await harness.call(id, {
      url: `${target.url}/signed`,
      headers: { 'x-grafx-proxy-exclude-headers': 'Authorization' },
    });
    expect(target.requests.at(-1)!.headers['x-api-key']).toBeUndefined();
    await harness.call(id, { url: `${target.url}/plain` });
    expect(target.requests.at(-1)!.headers['x-api-key']).toBe('static-secret-1234');
  });

  const inProcess = (connectorId: string) =>
    harness.proxy.fetchFor(
      { environmentId, connectorId, caller: { userId: 'auth0|alice', roles: new Set(['platform:read']) } },
      'browser',
    );

  it('in process: the same credential injection and header rules, the body collected', async () => {
    const id = await staticKeyConnector();
    const response = await inProcess(id)(
      {
        url: `${target.url}/items?q=1`,
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'X-GraFx-Proxy-User-Agent': 'ua/2', cookie: 'dropped' },
        body: 'hello',
        maxResponseBytes: 1024,
      },
      new AbortController().signal,
    );
    expect(response).toMatchObject({ status: 200, statusText: 'OK', credentialsInjected: true });
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(new TextDecoder().decode(response.body))).toEqual({ method: 'POST', bytes: 5 });
    const seen = target.requests.at(-1)!;
    expect([seen.path, seen.headers['x-api-key'], seen.headers['user-agent'], seen.headers.cookie]).toEqual([
      '/items?q=1',
      'static-secret-1234',
      'ua/2',
      undefined,
    ]);
    // The target's own reason phrase, as Fetch's statusText gives it.
    target.routes.set('/reason', (_req, res) => {
      res.writeHead(503, 'Custom Msg', { 'content-type': 'text/plain' });
      res.end('later');
    });
    const custom = await inProcess(id)(
      { url: `${target.url}/reason`, method: 'GET', headers: {}, body: undefined, maxResponseBytes: 1024 },
      new AbortController().signal,
    );
    expect(custom).toMatchObject({ status: 503, statusText: 'Custom Msg' });
    // The connector reads what its API answers (paging links, cursors, counters), which a browser on the platform's
    // origin does not get; hop-by-hop headers stay with the hop.
    target.routes.set('/paged', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        link: '<https://api.example/items?page=2>; rel="next"',
        'x-next-cursor': 'c2',
        'set-cookie': ['a=1', 'b=2'],
        connection: 'keep-alive, x-hop',
        'x-hop': 'dropped',
      });
      res.end('[]');
    });
    const paged = await inProcess(id)(
      { url: `${target.url}/paged`, method: 'GET', headers: {}, body: undefined, maxResponseBytes: 1024 },
      new AbortController().signal,
    );
    expect(paged.headers).toMatchObject({
      link: '<https://api.example/items?page=2>; rel="next"',
      'x-next-cursor': 'c2',
      'set-cookie': 'a=1, b=2',
    });
    expect(Object.keys(paged.headers)).not.toContain('x-hop');
    expect(Object.keys(paged.headers)).not.toContain('connection');
    expect(Object.keys(paged.headers)).not.toContain('content-security-policy');
  });

  it("in process: the fetch's redirect mode, follow checking every hop, error failing, manual answering the redirect", async () => {
    const id = await staticKeyConnector();
    target.routes.set('/hop', (_req, res) => {
      res.writeHead(302, { location: '/landed' });
      res.end();
    });
    target.routes.set('/leave', (_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.example/' });
      res.end();
    });
    const fetch = inProcess(id);
    const send = (path: string, redirect?: 'follow' | 'error' | 'manual') =>
      fetch(
        {
          url: `${target.url}${path}`,
          method: 'GET',
          headers: {},
          body: undefined,
          maxResponseBytes: 1024,
          ...(redirect ? { redirect } : {}),
        },
        new AbortController().signal,
      );
    for (const mode of [undefined, 'follow'] as const) {
      const followed = await send('/hop', mode);
      expect([followed.status, followed.redirected, followed.url]).toEqual([
        200,
        true,
        `${target.url}/landed`,
      ]);
    }
    const manual = await send('/hop', 'manual');
    expect([manual.status, manual.redirected, manual.url, manual.headers.location]).toEqual([
      302,
      false,
      `${target.url}/hop`,
      '/landed',
    ]);
    const before = target.requests.length;
    await expect(send('/hop', 'error')).rejects.toThrow(
      "answered with a redirect (302), and the fetch's redirect mode is 'error'",
    );
    expect(target.requests.slice(before).map((r) => r.path)).toEqual(['/hop']);
    // Followed, a hop is checked as the first request is.
    await expect(send('/leave')).rejects.toMatchObject({ code: 'FETCH_REFUSED' });
    expect((await send('/leave', 'manual')).status).toBe(302);
  });

  it('in process: a host outside allowedDomains and an oversized body are refused with typed errors', async () => {
    const id = await staticKeyConnector();
    const fetch = inProcess(id);
    const refused = await fetch(
      {
        url: 'https://elsewhere.example/',
        method: 'GET',
        headers: {},
        body: undefined,
        maxResponseBytes: 1024,
      },
      new AbortController().signal,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RuntimeError);
    expect(refused).toMatchObject({
      code: 'FETCH_REFUSED',
      message: expect.stringContaining('elsewhere.example'),
    });
    expect((refused as Error).message).toContain('allowedDomains');
    target.routes.set('/big', (_req, res) => res.end('x'.repeat(4096)));
    const tooLarge = await fetch(
      { url: `${target.url}/big`, method: 'GET', headers: {}, body: undefined, maxResponseBytes: 1024 },
      new AbortController().signal,
    ).catch((error: unknown) => error);
    expect(tooLarge).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });
});

describe.each(backends)('address guard on $name', (backend) => {
  let database: TestDatabase;
  let secrets: SecretBox;
  let target: Target;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    database = await backend.fresh();
    secrets = newSecrets();
    await seedEnvironment(database);
    target = await startTarget();
    closers.push(
      () => target.close(),
      () => database.close(),
    );
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('refuses loopback targets, by literal or by resolved name, unless private networks are allowed', async () => {
    const harness = await startProxy(database, secrets, { allowPrivateNetworks: false });
    closers.push(() => harness.close());
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1', 'localhost'] });
    const literal = await harness.call(id, { url: `${target.url}/x` });
    expect(literal.status).toBe(403);
    expect(JSON.parse(literal.text).detail).toContain('non-public address');
    const named = await harness.call(id, { url: `http://localhost:${target.port}/x` });
    expect(named.status).toBe(403);
    expect(target.requests).toHaveLength(0);
  });

  it('refuses a localhost name before it asks the token endpoint for a token', async () => {
    // Only 127.0.0.2 counts as public: the token endpoint listens there and counts connections, while localhost
    // (127.0.0.1) plays the private network.
    const connections: Socket[] = [];
    const tokenPeer = createServer((socket) => {
      connections.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => tokenPeer.listen(0, '127.0.0.2', resolve));
    closers.push(() => new Promise<void>((resolve) => tokenPeer.close(() => resolve())));
    const harness = await startProxy(database, secrets, {
      allowPrivateNetworks: false,
      isPublicAddress: (address) => address === '127.0.0.2',
    });
    closers.push(() => harness.close());
    const id = await insertConnector(database, { allowedDomains: ['localhost', 'app.localhost'] });
    await setAuth(database, secrets, id, 'browser', 'oAuth2ClientCredentials', {
      clientId: 'client',
      clientSecret: 'client-secret',
      tokenEndpoint: `https://127.0.0.2:${(tokenPeer.address() as AddressInfo).port}/token`,
    });
    for (const url of ['https://localhost/x', 'https://app.localhost/x']) {
      const refused = await harness.call(id, { url });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).detail).toContain('non-public address');
    }
    expect(connections).toHaveLength(0);
  });

  it('refuses a redirect hop to a private address', async () => {
    // Only 127.0.0.1 counts as public here, so 127.0.0.2 (also loopback) plays the private network.
    const harness = await startProxy(database, secrets, {
      allowPrivateNetworks: false,
      isPublicAddress: (address) => address === '127.0.0.1',
    });
    closers.push(() => harness.close());
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1', '127.0.0.2'] });
    expect((await harness.call(id, { url: `${target.url}/plain` })).status).toBe(200);
    target.routes.set('/to-private', (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${target.port}/internal` });
      res.end();
    });
    const refused = await harness.call(id, { url: `${target.url}/to-private` });
    expect(refused.status).toBe(403);
    expect(target.requests.map((r) => r.path)).toEqual(['/plain', '/to-private']);
  });
});
