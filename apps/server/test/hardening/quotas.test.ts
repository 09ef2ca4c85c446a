/**
 * Per-tenant quotas (issue: fail closed, point 12): the subscription's `maxTemplates` holds even against parallel
 * creations, each environment has a cap of tags (and connectors, media), `GET /tags` pages on request and stays
 * `{data}` without, and one user cannot pile up pending authorization-code logins.
 */
import { importDataFile, schema } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT_CAPS } from '../../../../packages/api/src/services/quotas.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const BASE = '/grafx/api/v1/environment/acme-prod';
const SANDBOX = '/grafx/api/v1/environment/acme-sandbox';

describe.each(await testBackends())('quotas on $name', (backend) => {
  let tp: TestPlatform;
  let token: string;
  beforeAll(async () => {
    tp = await startTestPlatform(backend);
    const file = fixture(new Date());
    file.subscriptions[0]!.maxTemplates = 5;
    await importDataFile(tp.database, file);
    token = await tp.token(USERS.owner, ['platform:read', 'platform:write']);
  });
  afterAll(async () => {
    await tp?.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await tp.call(path, {
      method,
      token,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      body: (await response.json().catch(() => null)) as Record<string, unknown>,
    };
  };

  it("holds the subscription's maxTemplates across its environments, even against parallel creations", async () => {
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', `${i % 2 ? BASE : SANDBOX}/templates`, { name: `t${i}` }),
      ),
    );
    const statuses = created.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    const refused = created.find((r) => r.status === 409)!;
    expect(refused.body.errors).toEqual({ maxTemplates: ['at most 5'] });
    // tRPC clients branch on the stable code.
    const viaTrpc = await tp.call('/trpc/templates.create', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ environment: 'acme-prod', body: { name: 'more' } }),
    });
    const envelope = (await viaTrpc.json()) as { error: { data: { errorCode: string; httpStatus: number } } };
    expect(envelope.error.data).toMatchObject({ errorCode: 'QUOTA_EXCEEDED', httpStatus: 409 });
    // Deleting one makes room for one.
    const ok = created.find((r) => r.status === 201)!;
    const deleted = await tp.call(`${BASE}/templates/${ok.body.id}`, { method: 'DELETE', token });
    expect([204, 404]).toContain(deleted.status);
    if (deleted.status === 404)
      await tp.call(`${SANDBOX}/templates/${ok.body.id}`, { method: 'DELETE', token });
    expect((await call('POST', `${BASE}/templates`, { name: 'again' })).status).toBe(201);
    expect((await call('POST', `${BASE}/templates`, { name: 'over' })).status).toBe(409);
  });

  it(`caps the tags of an environment at ${ENVIRONMENT_CAPS.tags}, and pages GET /tags on request`, async () => {
    const names = Array.from(
      { length: ENVIRONMENT_CAPS.tags },
      (_, i) => `tag-${String(i).padStart(4, '0')}`,
    );
    for (let i = 0; i < names.length; i += 10) {
      const batch = await Promise.all(
        names.slice(i, i + 10).map((name) => call('POST', `${BASE}/tags`, { name })),
      );
      expect(batch.map((r) => r.status)).toEqual(batch.map(() => 201));
    }
    const over = await call('POST', `${BASE}/tags`, { name: 'one-too-many' });
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual({ tagsPerEnvironment: [`at most ${ENVIRONMENT_CAPS.tags}`] });

    // A plain call keeps its exact shape.
    const plain = await call('GET', `${BASE}/tags`);
    expect(Object.keys(plain.body)).toEqual(['data']);
    expect((plain.body.data as unknown[]).length).toBe(ENVIRONMENT_CAPS.tags);

    // Paged: every tag once, in order, following links.nextPage.
    const seen: string[] = [];
    let next: string | null = `${tp.url}${BASE}/tags?limit=100`;
    let pages = 0;
    while (next) {
      const page = (await (await fetch(next, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        data: { name: string }[];
        pageSize: number;
        links: { nextPage: string | null };
      };
      expect(page.pageSize).toBe(100);
      seen.push(...page.data.map((t) => t.name));
      next = page.links.nextPage;
      pages++;
    }
    expect(pages).toBe(10);
    expect(seen).toEqual(names);
    expect((await call('GET', `${BASE}/tags?limit=0`)).status).toBe(400);
    expect((await call('GET', `${BASE}/tags?nextPageToken=nonsense`)).status).toBe(400);
  }, 120_000);

  it('keeps at most 20 pending authorization-code logins per user, dropping the oldest', async () => {
    const connector = await call('POST', `${BASE}/connectors`, {
      name: 'login cap',
      version: '1.0.0',
      type: 'data',
      script: 'export default class Connector {}',
      allowedDomains: ['127.0.0.1'],
    });
    const id = connector.body.id as string;
    const set = await call('PUT', `${BASE}/connectors/${id}/auth/oauth-authorization-code`, {
      usage: 'browser',
      clientId: 'c',
      clientSecret: 's',
      authorizationServerMetadata: {
        authorization_endpoint: 'http://127.0.0.1:9/authorize',
        token_endpoint: 'http://127.0.0.1:9/token',
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      },
    });
    expect(set.status).toBe(200);
    const reader = await tp.token(USERS.contentUser, ['platform:read']);
    for (let i = 0; i < 30; i++) {
      const login = await tp.call(`${BASE}/connectors/${id}/auth/oauth-authorization-code/login`, {
        method: 'POST',
        token: reader,
      });
      expect(login.status).toBe(200);
    }
    const { oauthLoginStates } = schema;
    const [row] = await tp.database.db
      .select({ n: count() })
      .from(oauthLoginStates)
      .where(eq(oauthLoginStates.userId, USERS.contentUser));
    expect(row?.n).toBe(20);
  });
});
