/**
 * Crafted input the adversarial review found answering 500 (issue: fail closed, point 8): object-prototype keys
 * in a body, object-valued tRPC parameters, U+0000 inside an opaque page token. Each is a 400 naming the field,
 * over REST and tRPC alike, and a 500 that does happen is logged with its cause under its traceId.
 */
import { testBackends } from '@platform/store/testing';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { type KnownIds, seedWorld } from '../support/fuzz-world.ts';
import { seededPlatform } from '../support/seeded.ts';

const backends = await testBackends();
const BASE = '/grafx/api/v1/environment/acme-prod';

type Problem = { status: number; traceId: string; errors?: Record<string, string[]> };

describe.each(backends)('crafted input on $name', (backend) => {
  const s = seededPlatform(backend);
  let known: KnownIds;
  beforeAll(async () => {
    known = await seedWorld(s.tp);
  });

  const rest = async (method: string, path: string, body?: string) => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const response = await s.tp.call(path, {
      method,
      token,
      ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
    });
    return { status: response.status, body: (await response.json()) as Problem };
  };

  const trpc = async (procedure: string, input: string, mutation: boolean) => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const response = mutation
      ? await s.tp.call(`/trpc/${procedure}`, {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/json' },
          body: input,
        })
      : await s.tp.call(`/trpc/${procedure}?input=${encodeURIComponent(input)}`, { token });
    const body = (await response.json()) as {
      error: { data: { httpStatus: number; traceId: string; errors?: Record<string, string[]> } };
    };
    return { status: response.status, data: body.error.data };
  };

  it('names an extra body key called like an Object.prototype member in a 400 (set-auth was 500)', async () => {
    const { connectorId } = known;
    for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const reply = await rest(
        'PUT',
        `${BASE}/connectors/${connectorId![0]}/auth/static`,
        `{"usage":"browser","key":"X-Key","value":"v","${key}":{"a":1}}`,
      );
      expect(reply.status, key).toBe(400);
      expect(Object.keys(reply.body.errors ?? {}), key).toContain(key);
    }
  });

  it('names an object-valued tRPC parameter in a 400 (was 500: cannot convert object to primitive)', async () => {
    const { connectorId, templateId } = known;
    const cases: [string, string, boolean, string][] = [
      ['connectors.get', `{"environment":"acme-prod","connectorId":{"toString":null}}`, false, 'connectorId'],
      [
        'connectors.get',
        `{"environment":{"toString":null},"connectorId":"${connectorId![0]}"}`,
        false,
        'environment',
      ],
      [
        'templates.get',
        `{"environment":"acme-prod","templateId":{"valueOf":null,"toString":null}}`,
        false,
        'templateId',
      ],
      ['subscriptions.get', `{"subscriptionId":{"toString":null}}`, false, 'subscriptionId'],
      ['templates.list', `{"environment":"acme-prod","search":{"toString":null}}`, false, 'search'],
      [
        'templates.update',
        `{"environment":"acme-prod","templateId":"${templateId![0]}","body":{"name":{"toString":null}}}`,
        true,
        'name',
      ],
    ];
    for (const [procedure, input, mutation, field] of cases) {
      const reply = await trpc(procedure, input, mutation);
      expect(reply.data.httpStatus, `${procedure} ${input}`).toBe(400);
      expect(Object.keys(reply.data.errors ?? {}), `${procedure} ${input}`).toContain(field);
    }
  });

  it('names a nextPageToken carrying U+0000 in a 400, over REST and tRPC', async () => {
    for (const token of [
      Buffer.from(JSON.stringify(['a\u0000b', '00000000-0000-4000-8000-000000000000'])).toString('base64url'),
      Buffer.from('["\\u0000","00000000-0000-4000-8000-000000000000"]').toString('base64url'),
      Buffer.from('["\\ud800","00000000-0000-4000-8000-000000000000"]').toString('base64url'),
    ]) {
      const reply = await rest('GET', `${BASE}/templates?nextPageToken=${token}`);
      expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(400);
      expect(Object.keys(reply.body.errors ?? {})).toContain('nextPageToken');
      const viaTrpc = await trpc(
        'templates.list',
        JSON.stringify({ environment: 'acme-prod', nextPageToken: token }),
        false,
      );
      expect(viaTrpc.data.httpStatus).toBe(400);
      expect(Object.keys(viaTrpc.data.errors ?? {})).toContain('nextPageToken');
    }
  });

  it('logs the cause of every 500 under its traceId, over REST and tRPC (tRPC logged none)', async () => {
    // A real fault: the table behind the tags listing is gone for the length of two requests.
    await s.tp.database.db.execute(sql`ALTER TABLE tags RENAME TO tags_away`);
    try {
      const viaRest = await rest('GET', `${BASE}/tags`);
      const viaTrpc = await trpc('tags.list', '{"environment":"acme-prod"}', false);
      expect([viaRest.status, viaTrpc.data.httpStatus]).toEqual([500, 500]);
      for (const traceId of [viaRest.body.traceId, viaTrpc.data.traceId]) {
        const line = s.tp.logs
          .map(
            (l) =>
              JSON.parse(l) as { msg: string; traceId?: string; err?: { message?: string; stack?: string } },
          )
          .find((l) => l.msg === 'unexpected error' && l.traceId === traceId);
        expect(line?.err?.message, traceId).toMatch(/tags/);
        expect(line?.err?.stack, traceId).toBeTruthy();
      }
    } finally {
      await s.tp.database.db.execute(sql`ALTER TABLE tags_away RENAME TO tags`);
    }
  });
});
