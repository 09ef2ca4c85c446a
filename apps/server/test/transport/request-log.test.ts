/**
 * The request log writes its lines itself (packages/api/src/observability/request-log.ts): each must be the very line
 * pino writes for the same fields, at the level the status gives, one per call of a tRPC batch.
 */
import { Writable } from 'node:stream';
import { testBackends } from '@platform/store/testing';
import pino, { type Level } from 'pino';
import { describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { sendRaw } from '../support/raw-http.ts';
import { seededPlatform } from '../support/seeded.ts';

const backends = await testBackends();

type Line = Record<string, unknown> & { level: number; time: number; msg: string };
const LEVELS: Record<number, Level> = { 30: 'info', 40: 'warn', 50: 'error' };

/** What pino itself writes for `line`'s fields, with its time and bindings (pid, hostname). */
const asPinoWrites = (line: Line): string => {
  let written = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  });
  const { level, time, pid, hostname, msg, ...fields } = line;
  const logger = pino({ level: 'info', base: { pid, hostname }, timestamp: () => `,"time":${time}` }, sink);
  logger[LEVELS[level] as Level](fields, msg);
  return written;
};

describe.each(backends)('the request log on $name', (backend) => {
  const s = seededPlatform(backend);

  it('writes, for every kind of request, the line pino would write, at the level of its status', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read']);
    const headers = { authorization: `Bearer ${token}` };
    const before = s.tp.logs.length;
    await sendRaw(s.tp.url, { method: 'GET', path: '/api/v1/subscriptions?top=1', headers });
    await sendRaw(s.tp.url, {
      method: 'GET',
      path: '/grafx/api/v1/environment/acme-prod/connectors',
      headers,
    });
    // Unknown environment (404), no token (401), a path with escapes, an odd user id and procedure name, and a tRPC
    // batch of two calls.
    await sendRaw(s.tp.url, { method: 'GET', path: '/grafx/api/v1/environment/nowhere/connectors', headers });
    await sendRaw(s.tp.url, { method: 'GET', path: '/api/v1/subscriptions' });
    await sendRaw(s.tp.url, { method: 'GET', path: '/api/v1/"quoted\\x', headers });
    // A user id and a procedure name that JSON must escape (the line keeps their escaped texts from request to
    // request).
    const odd = await s.tp.token('oidc|"o\\ñ', ['platform:read']);
    await sendRaw(s.tp.url, {
      method: 'GET',
      path: '/api/v1/subscriptions?top=1',
      headers: { authorization: `Bearer ${odd}` },
    });
    await sendRaw(s.tp.url, { method: 'GET', path: '/trpc/%22x%5C', headers });
    const batch = encodeURIComponent(
      JSON.stringify({ 0: { environment: 'acme-prod' }, 1: { environment: 'x' } }),
    );
    await sendRaw(s.tp.url, {
      method: 'GET',
      path: `/trpc/tags.list,tags.list?batch=1&input=${batch}`,
      headers,
    });

    // Lines are written when a response is complete: wait for the last request's lines.
    const deadline = Date.now() + 5000;
    const requestLines = () =>
      s.tp.logs
        .slice(before)
        .flatMap((chunk) => chunk.split('\n'))
        .filter((line) => line.includes('"route":'));
    while (requestLines().length < 9 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const lines = requestLines();
    expect(lines).toHaveLength(9);

    const parsed = lines.map((text) => {
      const line = JSON.parse(text) as Line;
      expect(`${text}\n`).toBe(asPinoWrites(line));
      return line;
    });
    const summary = parsed.map((line) => [
      line.level,
      (line.req as { path: string }).path,
      (line.res as { status: number }).status,
      line.route,
      line.userId,
    ]);
    expect(summary).toEqual([
      [30, '/api/v1/subscriptions', 200, '/api/v1/subscriptions', USERS.owner],
      [
        30,
        '/grafx/api/v1/environment/acme-prod/connectors',
        200,
        '/grafx/api/v1/environment/{environment}/connectors',
        USERS.owner,
      ],
      [
        40,
        '/grafx/api/v1/environment/nowhere/connectors',
        404,
        '/grafx/api/v1/environment/{environment}/connectors',
        USERS.owner,
      ],
      [40, '/api/v1/subscriptions', 401, '/api/v1/subscriptions', undefined],
      [40, '/api/v1/"quoted\\x', 404, 'unmatched', USERS.owner],
      [30, '/api/v1/subscriptions', 200, '/api/v1/subscriptions', 'oidc|"o\\ñ'],
      [40, '/trpc/%22x%5C', 404, '/trpc', USERS.owner],
      [30, '/trpc/tags.list,tags.list', 200, '/trpc/tags.list', USERS.owner],
      [40, '/trpc/tags.list,tags.list', 404, '/trpc/tags.list', USERS.owner],
    ]);
    expect(parsed.slice(-2).map((line) => line.batch)).toEqual([
      { index: 0, size: 2 },
      { index: 1, size: 2 },
    ]);
    for (const line of parsed) {
      expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(line.msg).toBe(`GET ${line.route} ${(line.res as { status: number }).status}`);
    }
  });
});
