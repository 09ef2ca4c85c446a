/**
 * The rate limit counts who calls, not the bytes of a header (docs/configuration.md): spellings of one token share
 * a bucket, junk tokens count against the client's address, every call of a tRPC batch counts, a batch holds at
 * most 50 calls, and each call writes its own log line.
 */
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { contractViolations, sendRaw } from '../support/raw-http.ts';
import { seededPlatform } from '../support/seeded.ts';

const backends = await testBackends();

const PER_SECOND = 2;

/**
 * Sequential requests, `count` of them, each with its own Authorization value; also the most a limit of
 * PER_SECOND (bursts of twice that) can let through in the time they took.
 */
const statuses = async (url: string, path: string, count: number, authorization: (i: number) => string) => {
  const seen: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const reply = await sendRaw(url, { method: 'GET', path, headers: { authorization: authorization(i) } });
    expect(contractViolations(reply!)).toEqual([]);
    seen.push(reply!.status);
  }
  const seconds = (performance.now() - started) / 1000;
  return { seen, mostAllowed: 2 * PER_SECOND + Math.ceil(seconds * PER_SECOND) };
};

const batchPath = (calls: number) =>
  `/trpc/${Array.from({ length: calls }, () => 'tags.list').join(',')}?batch=1&input=${encodeURIComponent(
    JSON.stringify(
      Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { environment: 'acme-prod' }])),
    ),
  )}`;

describe.each(backends)('rate limit by who on $name', (backend) => {
  // A burst of 30 quick requests must meet the limit.
  const s = seededPlatform(backend, { RATE_LIMIT_PER_SECOND: String(PER_SECOND) });

  it('limits one token however its header is spelled', async () => {
    // The issuer's keys are fetched by the first token verified: not part of the burst.
    await s.tp.call('/api/v1/subscriptions', { token: await s.tp.token(USERS.admin, ['platform:read']) });
    const token = await s.tp.token(USERS.member, ['platform:read']);
    const spellings = [`Bearer ${token}`, `bearer ${token}`, `BEARER    ${token}`, `Bearer\t${token}`];
    const { seen, mostAllowed } = await statuses(
      s.tp.url,
      '/api/v1/subscriptions',
      30,
      (i) => spellings[i % 4]!,
    );
    expect(seen.filter((st) => st === 200).length).toBeLessThanOrEqual(mostAllowed);
    expect(seen.filter((st) => st !== 200 && st !== 429)).toEqual([]);
    expect(seen).toContain(429);
  });

  it('counts failed verifications against the client address: junk tokens meet 429', async () => {
    const { seen, mostAllowed } = await statuses(
      s.tp.url,
      '/api/v1/subscriptions',
      30,
      (i) => `Bearer junk.${i}.${Date.now()}`,
    );
    expect(seen.filter((st) => st === 401).length).toBeLessThanOrEqual(mostAllowed);
    expect(seen.filter((st) => st !== 401 && st !== 429)).toEqual([]);
    expect(seen).toContain(429);
  });

  it('counts every call of a tRPC batch, refuses a batch over 50 calls, and logs each call', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read']);
    const headers = { authorization: `Bearer ${token}` };
    // A burst allows 4 calls: a batch of 3 passes, the next batch of 3 does not.
    const first = await sendRaw(s.tp.url, { method: 'GET', path: batchPath(3), headers });
    expect(first?.status).toBe(200);
    const lines = s.tp.logs.filter((l) => l.includes('"route":"/trpc/tags.list"'));
    expect(lines).toHaveLength(3);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { traceId: string }).traceId)).size).toBe(1);

    const second = await sendRaw(s.tp.url, { method: 'GET', path: batchPath(3), headers });
    expect(second?.status).toBe(429);
    expect(contractViolations(second!)).toEqual([]);

    const huge = await sendRaw(s.tp.url, { method: 'GET', path: batchPath(51), headers });
    expect(huge?.status).toBe(400);
    expect(contractViolations(huge!)).toEqual([]);
    const problem = JSON.parse(huge!.body.toString()) as { detail: string; errors: Record<string, string[]> };
    expect(problem.detail).toContain('50');
    expect(problem.errors).toHaveProperty('batch');
  });
});
