import { createPlatformClient } from '@platform/client';
import { testBackends } from '@platform/store/testing';
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { ENV_PROD, SUB_A, USERS } from '../support/fixture.ts';
import { json, seededPlatform } from '../support/seeded.ts';

type Problem = { type: string; title: string; status: number; detail: string; traceId: string };

describe.each(await testBackends())('errors and the tRPC transport on $name', (backend) => {
  const s = seededPlatform(backend, { RATE_LIMIT_PER_SECOND: '5' });
  let n = 0;
  // The rate limit counts per user (issuer + subject), 5 per second with bursts of 10 here: the test of the limit
  // drains the member's bucket, the typed client's test runs as the owner, the others as the outsider.
  const token = (user: string = USERS.outsider) =>
    s.tp.token(user, ['platform:read', 'platform:write', `t:${n++}`]);

  it('answers unknown paths with 404 ProblemDetails and wrong methods with 405', async () => {
    const unknown = await s.tp.call('/api/v1/nothing-here', { token: await token() });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/json');
    expect(await json<Problem>(unknown)).toMatchObject({
      status: 404,
      title: 'Not Found',
      traceId: expect.any(String),
    });
    const wrong = await s.tp.call(`/api/v1/subscriptions/${SUB_A}`, { method: 'POST', token: await token() });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect(await json<Problem>(wrong)).toMatchObject({ status: 405 });
    // The documents and /metrics are paths too: another method there is a 405, not a 404.
    for (const path of ['/metrics', '/openapi.json', '/docs']) {
      for (const method of ['POST', 'DELETE']) {
        const refused = await s.tp.call(path, { method, token: await token() });
        expect(refused.status, `${method} ${path}`).toBe(405);
        expect(refused.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD');
      }
    }
  });

  it('answers 413 over 1 MiB and 400 for broken JSON, without internals', async () => {
    const big = await s.tp.call(`/api/v1/subscriptions/${SUB_A}/external-idp-domains`, {
      method: 'PUT',
      token: await token(),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(['a'.repeat(1024 * 1024 + 10)]),
    });
    expect(big.status).toBe(413);
    expect(await json<Problem>(big)).toMatchObject({ status: 413 });
    const broken = await s.tp.call(`/api/v1/subscriptions/${SUB_A}/external-idp-domains`, {
      method: 'PUT',
      token: await token(),
      headers: { 'content-type': 'application/json' },
      body: '["a.example",',
    });
    expect(broken.status).toBe(400);
    const text = await broken.text();
    expect(text).not.toMatch(/at .*\.ts|SyntaxError|node_modules/);
  });

  it('continues a valid traceparent into the error body', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await s.tp.call('/api/v1/nothing', {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect((await json<Problem>(response)).traceId).toBe(traceId);
    const fresh = await s.tp.call('/api/v1/nothing', {
      headers: { traceparent: '00-zzzz-00f067aa0ba902b7-01' },
    });
    expect((await json<Problem>(fresh)).traceId).not.toBe(traceId);
  });

  it('answers 429 with Retry-After over the per-user rate', async () => {
    const shared = await s.tp.token(USERS.member, ['platform:read']);
    const statuses = await Promise.all(
      Array.from({ length: 25 }, () => s.tp.call('/api/v1/subscriptions', { token: shared }).then((r) => r)),
    );
    const limited = statuses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await json<Problem>(limited[0] as Response)).toMatchObject({ status: 429 });
    // A tRPC client reads the same refusal as its own error: the body is ProblemDetails and a tRPC envelope. The
    // bucket gains a request every 200 ms, so it is emptied again just before (a slow machine took longer than that
    // to answer the 25 above), and tried again should a request have been regained in between.
    const client = createPlatformClient(s.tp.url, shared);
    let refused: unknown;
    for (let attempt = 0; attempt < 5 && refused === undefined; attempt++) {
      let status = 0;
      while (status !== 429) {
        const reply = await s.tp.call('/api/v1/subscriptions', { token: shared });
        await reply.arrayBuffer();
        status = reply.status;
      }
      refused = await client.subscriptions.list.query({}).then(
        () => undefined,
        (error: unknown) => error,
      );
    }
    expect(refused).toSatisfy(
      (error) =>
        error instanceof TRPCClientError &&
        error.data?.httpStatus === 429 &&
        error.data?.code === 'TOO_MANY_REQUESTS',
    );
  });

  it('returns the same data through the typed tRPC client', async () => {
    const t = await token(USERS.owner);
    const client = createPlatformClient(s.tp.url, t);
    const rest = await json(await s.tp.call(`/api/v1/subscriptions/${SUB_A}`, { token: t }));
    expect(await client.subscriptions.get.query({ subscriptionId: SUB_A })).toEqual(rest);
    const restRenders = await json(
      await s.tp.call(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=year&top=1`, { token: t }),
    );
    expect(
      await client.subscriptions.renders.query({ subscriptionId: SUB_A, groupBy: 'year', top: 1 }),
    ).toEqual(restRenders);
    expect(await client.environments.get.query({ environmentId: ENV_PROD })).toEqual(
      await json(await s.tp.call(`/api/v1/environments/${ENV_PROD}`, { token: t })),
    );
    await expect(client.subscriptions.get.query({ subscriptionId: 'nope' })).rejects.toSatisfy(
      (error) => error instanceof TRPCClientError && error.data?.httpStatus === 404,
    );
    await expect(createPlatformClient(s.tp.url).subscriptions.list.query({})).rejects.toSatisfy(
      (error) => error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED',
    );
    // The challenge of a 401, as on REST: with error="invalid_token" when a token was presented.
    const missing = await s.tp.call('/trpc/subscriptions.list');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const invalid = await s.tp.call('/trpc/subscriptions.list', { token: 'x.y.z' });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });
});
