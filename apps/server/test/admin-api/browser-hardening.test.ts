/**
 * What the server tells browsers (docs/authentication.md, docs/errors.md): its pages cannot be framed, the API
 * reference keeps no token, OPTIONS is no open door, and every tRPC error carries its errorCode and traceId.
 */
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const TRACE_ID = /^[0-9a-f]{32}$/;

const expectNoFraming = (response: Response) => {
  expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(response.headers.get('x-frame-options')).toBe('DENY');
};

describe.each((await testBackends()).slice(0, 1))('browser hardening on $name', (backend) => {
  let tp: TestPlatform;
  let token: string;
  let writer: string;

  beforeAll(async () => {
    tp = await startTestPlatform(backend);
    token = await tp.token('auth0|reader', ['platform:read']);
    writer = await tp.token('auth0|writer', ['platform:read', 'platform:write']);
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('serves the API reference and the console unframeable, and the reference keeps no token', async () => {
    expectNoFraming(await tp.call('/docs'));
    const console = await tp.call('/console/');
    expect(console.status).toBe(200);
    expectNoFraming(console);
    const init = await (await tp.call('/docs/init.js')).text();
    expect(init).toContain('persistAuthorization: false');
    expect(init).not.toMatch(/localStorage/);
  });

  it('answers OPTIONS without a token 405 with Allow, as ProblemDetails, never 200', async () => {
    for (const [path, allow] of [
      // A GET route answers HEAD too, so Allow names it.
      ['/api/v1/subscriptions', 'GET, HEAD'],
      ['/api/v1/info', 'GET, HEAD'],
      ['/grafx/api/v1/environment/acme-prod/connectors', 'GET, HEAD, POST'],
      ['/api/v1/render-events', 'POST'],
    ] as const) {
      const answer = await tp.call(path, { method: 'OPTIONS' });
      expect(answer.status, path).toBe(405);
      expect(answer.headers.get('allow')).toBe(allow);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answer.json()).toMatchObject({ status: 405, traceId: expect.stringMatching(TRACE_ID) });
    }
    const trpc = await tp.call('/trpc/subscriptions.list', { method: 'OPTIONS' });
    expect(trpc.status).toBe(405);
    expect(trpc.headers.get('allow')).toBe('GET, POST');
    // The proxy takes every method: OPTIONS there is proxied, so it needs a token like any other.
    const proxied = await tp.call(
      '/grafx/api/v1/environment/acme-prod/connectors/00000000-0000-4000-8000-000000000000/proxy',
      { method: 'OPTIONS' },
    );
    expect(proxied.status).toBe(401);
  });

  it('gives every tRPC error its errorCode and traceId, tRPC’s own refusals included', async () => {
    const cases: [string, RequestInit & { token?: string }, number, string][] = [
      ['/trpc/nope.nope', { token }, 404, 'NOT_FOUND'],
      ['/trpc/subscriptions.list?input=%7Bbad', { token }, 400, 'VALIDATION_FAILED'],
      [
        '/trpc/subscriptions.list',
        { token, method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } },
        405,
        'METHOD_NOT_ALLOWED',
      ],
      ['/trpc/tags.create', { token }, 405, 'METHOD_NOT_ALLOWED'],
      ['/trpc/subscriptions.list', { token, method: 'PUT' }, 405, 'METHOD_NOT_ALLOWED'],
      ['/trpc/subscriptions.list', { token, method: 'DELETE' }, 405, 'METHOD_NOT_ALLOWED'],
      ['/trpc/subscriptions.list', {}, 401, 'UNAUTHENTICATED'],
      // POST without a body, so without a type: answered by tRPC's context, not its earlier 415.
      ['/trpc/subscriptions.list', { token, method: 'POST' }, 405, 'METHOD_NOT_ALLOWED'],
      ['/trpc/tags.create', { token: writer, method: 'POST' }, 400, 'VALIDATION_FAILED'],
      ['/trpc/tags.create', { token: writer, method: 'POST', body: '{}' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [
        '/trpc/tags.create',
        {
          token: writer,
          method: 'POST',
          body: 'a=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      // Without the role the body is not looked at, whatever its type: 403 first.
      ['/trpc/tags.create', { token, method: 'POST', body: 'a=1' }, 403, 'FORBIDDEN'],
    ];
    for (const [path, init, status, errorCode] of cases) {
      const answer = await tp.call(path, init);
      expect(answer.status, `${init.method ?? 'GET'} ${path}`).toBe(status);
      const body = (await answer.json()) as { error: { data: Record<string, unknown> } };
      expect(body.error.data, `${init.method ?? 'GET'} ${path}`).toMatchObject({
        errorCode,
        traceId: expect.stringMatching(TRACE_ID),
        httpStatus: status,
      });
    }
    // A batch: every failed call of it carries them.
    const batch = await tp.call('/trpc/subscriptions.list,nope.nope?batch=1&input=%7B%7D', { token });
    const calls = (await batch.json()) as { error?: { data: Record<string, unknown> } }[];
    expect(calls[1]?.error?.data).toMatchObject({
      errorCode: 'NOT_FOUND',
      traceId: expect.stringMatching(TRACE_ID),
    });
  });
});
