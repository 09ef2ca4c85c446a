/**
 * The front door (docs/configuration.md, "Processes") answers the exact spelling of the hot routes itself and hands
 * every other spelling to the router: both must give the same answers, decode paths alike, check the token first
 * and count against one rate limit.
 */
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { SUB_A, USERS } from '../support/fixture.ts';
import { contractViolations, type RawReply, sendRaw } from '../support/raw-http.ts';
import { seededPlatform } from '../support/seeded.ts';

const backends = await testBackends();
const ENV = '/grafx/api/v1/environment/acme-prod';

/** Status and body, the trace id aside (every request has its own). */
const answer = (reply: RawReply | undefined) => {
  expect(reply).toBeDefined();
  expect(contractViolations(reply!)).toEqual([]);
  const text = reply!.body.toString('utf8');
  const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  if (body && !Array.isArray(body)) delete body.traceId;
  return { status: reply!.status, type: reply!.headers['content-type'], body };
};

describe.each(backends)('the front door on $name', (backend) => {
  const s = seededPlatform(backend);
  const send = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    return sendRaw(s.tp.url, { method, path, headers: { authorization: `Bearer ${token}`, ...headers } });
  };

  it('answers the exact spelling as the router answers the others', async () => {
    for (const path of [
      `/api/v1/subscriptions/${SUB_A}`,
      '/api/v1/subscriptions',
      `${ENV}/connectors`,
      `${ENV}/templates?limit=1`,
      `${ENV}/connectors/00000000-0000-4000-8000-000000000099`,
      '/api/v1/subscriptions/no-such-subscription',
    ]) {
      const [pathname, query] = path.split('?');
      const exact = answer(await send('GET', path));
      const slash = answer(await send('GET', `${pathname}/${query ? `?${query}` : ''}`));
      const upper = answer(await send('GET', path.replace('/api/', '/API/').replace('/grafx/', '/GRAFX/')));
      expect(slash, path).toEqual(exact);
      expect(upper, path).toEqual(exact);
    }
    const found = answer(await send('GET', `/api/v1/subscriptions/${SUB_A}`));
    expect(found.status).toBe(200);
    expect(found.type).toBe('application/json');
    expect(answer(await send('GET', '/api/v1/subscriptions/no-such-subscription')).status).toBe(404);
  });

  it('decodes path parameters as the router does, and leaves bad percent-encoding to its 400', async () => {
    const plain = answer(await send('GET', `/api/v1/subscriptions/${SUB_A}`));
    const encoded = answer(await send('GET', `/api/v1/subscriptions/%30${SUB_A.slice(1)}`));
    expect(encoded).toEqual(plain);
    const bad = answer(await send('GET', `/api/v1/subscriptions/%c0%ae${SUB_A.slice(2)}`));
    expect(bad.status).toBe(400);
    expect(bad.body?.errors).toHaveProperty('subscriptionId');
    const proxy = answer(await send('GET', `${ENV}/connectors/%ed%a0%80/proxy`));
    expect(proxy.status).toBe(400);
    expect(Object.keys(proxy.body?.errors as object)).toEqual(['connectorId']);
  });

  it('checks the token before any route, and keeps the caller trace id', async () => {
    for (const path of [
      `${ENV}/connectors`,
      `${ENV}/connectors/00000000-0000-4000-8000-000000000099/proxy`,
    ]) {
      const none = await sendRaw(s.tp.url, { method: 'GET', path, headers: {} });
      expect(answer(none).status, path).toBe(401);
      expect(none!.headers['www-authenticate']).toBe('Bearer');
      const junk = await sendRaw(s.tp.url, {
        method: 'GET',
        path,
        headers: { authorization: 'Bearer junk' },
      });
      expect(answer(junk).status, path).toBe(401);
      expect(String(junk!.headers['www-authenticate'])).toMatch(/^Bearer error="invalid_token"/);
    }
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const reply = await send('GET', '/api/v1/subscriptions/no-such-subscription', {
      traceparent: `00-${trace}-00f067aa0ba902b7-01`,
    });
    expect(JSON.parse(reply!.body.toString('utf8')).traceId).toBe(trace);
  });

  it('answers HEAD as GET, without a body', async () => {
    const head = await send('HEAD', `${ENV}/connectors`);
    expect(head?.status).toBe(200);
    expect(head?.body.length).toBe(0);
  });
});

describe.each(backends)('one rate limit for both lanes on $name', (backend) => {
  const PER_SECOND = 2;
  const s = seededPlatform(backend, { RATE_LIMIT_PER_SECOND: String(PER_SECOND) });

  it('counts the exact and the other spellings against the same bucket', async () => {
    const token = await s.tp.token(USERS.member, ['platform:read']);
    const seen: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 30; i++) {
      const path = i % 2 === 0 ? '/api/v1/subscriptions' : '/api/v1/subscriptions/';
      const reply = await sendRaw(s.tp.url, {
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${token}` },
      });
      seen.push(reply!.status);
    }
    const mostAllowed = 2 * PER_SECOND + Math.ceil(((performance.now() - started) / 1000) * PER_SECOND);
    expect(seen.filter((status) => status === 200).length).toBeLessThanOrEqual(mostAllowed);
    expect(seen.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    // Both lanes refuse once the bucket is empty.
    expect(seen.filter((status, i) => status === 429 && i % 2 === 0).length).toBeGreaterThan(0);
    expect(seen.filter((status, i) => status === 429 && i % 2 === 1).length).toBeGreaterThan(0);
  });
});
