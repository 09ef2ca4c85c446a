import {
  BasicEnvironmentModel,
  BasicSubscriptionModel,
  EnvironmentModel,
  SubscriptionModel,
  SubscriptionUserModel,
  UserModel,
} from '@platform/core';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENV_DEV, ENV_PROD, ENV_PROD2, ENV_SANDBOX, SUB_A, USERS } from '../support/fixture.ts';
import { json, seededPlatform } from '../support/seeded.ts';

const sameMonth = (iso: string, now: Date) => iso.slice(0, 7) === now.toISOString().slice(0, 7);

describe.each(await testBackends())('administration resources on $name', (backend) => {
  const s = seededPlatform(backend);
  const owner = () => s.tp.token(USERS.owner, ['platform:read', 'platform:write']);

  it('returns a subscription with every derived figure', async () => {
    const response = await s.tp.call(`/api/v1/subscriptions/${SUB_A}`, { token: await owner() });
    expect(response.status).toBe(200);
    const body = SubscriptionModel.parse(await response.json());
    expect(body).toMatchObject({
      id: 501,
      name: 'acme',
      status: 'Active',
      maxTemplates: 500,
      averageRendersPeriodDays: 30,
      // 4 environments: storage parts 1..6 with assets 100/200/300/400.
      storageUsed: 100 + 200 + 300 + 400 + 4 * (2 + 3 + 4 + 5 + 6),
      tenantInformation: {
        sandboxEnvironmentsTotal: 2,
        sandboxEnvironmentsUsed: 1,
        productionEnvironmentsTotal: 2,
        productionEnvironmentsUsed: 2,
      },
      templateDesignerSeatsUsed: 1,
      licenses: [{ id: 'LIC-1', coresTotal: 8, coresUsed: 2, licenseType: 'Production' }],
    });
    const events = [
      { at: 0, n: 10, wm: false },
      { at: 1, n: 5, wm: false },
      { at: 1, n: 2, wm: true },
      { at: 2, n: 7, wm: false },
      { at: 0, n: 3, wm: false },
      { at: 40, n: 4, wm: false },
    ];
    const dayIso = (ago: number) =>
      new Date(Date.UTC(s.now.getUTCFullYear(), s.now.getUTCMonth(), s.now.getUTCDate() - ago)).toISOString();
    const inMonth = events.filter((e) => sameMonth(dayIso(e.at), s.now));
    expect(body.usedRenders).toBe(inMonth.filter((e) => !e.wm).reduce((a, e) => a + e.n, 0));
    expect(body.usedWatermarkedRenders).toBe(inMonth.filter((e) => e.wm).reduce((a, e) => a + e.n, 0));
    // Mean per day over the last 30 days, today included, rounded down: day 40 is outside.
    expect(body.averageRenders).toBe(Math.floor((10 + 5 + 7 + 3) / 30));
    expect(body.environments.map((e) => e.guid).sort()).toEqual(
      [ENV_PROD, ENV_SANDBOX, ENV_DEV, ENV_PROD2].sort(),
    );
  });

  it('lists subscriptions ordered by id as BasicSubscriptionModel', async () => {
    const operator = await s.tp.token('ops', ['platform:read', 'platform:admin']);
    const body = z
      .array(BasicSubscriptionModel)
      .parse(await json(await s.tp.call('/api/v1/subscriptions', { token: operator })));
    expect(body.map((x) => [x.id, x.isActive])).toEqual([
      [501, true],
      [502, false],
    ]);
  });

  it('returns an environment with its storage detail and current-month renders', async () => {
    const response = await s.tp.call(`/api/v1/environments/${ENV_PROD}`, { token: await owner() });
    const body = EnvironmentModel.parse(await response.json());
    expect(body).toMatchObject({
      id: 11,
      subscriptionId: SUB_A,
      type: 'Production',
      usedStorage: 100 + 2 + 3 + 4 + 5 + 6,
      usedStorageDetail: { assets: 100, documents: 2, fonts: 3, cache: 4, backup: 5, other: 6 },
      isPlatformPricebook: true,
      disableCpoToPlatformRedirect: false,
    });
  });

  it('lists environments by type then name, filtered by subscription and name', async () => {
    const token = await owner();
    const all = z
      .array(BasicEnvironmentModel)
      .parse(await json(await s.tp.call(`/api/v1/environments?subscriptionId=${SUB_A}`, { token })));
    expect(all.map((e) => e.name)).toEqual([
      'Acme Production',
      'Acme Production US',
      'Acme Sandbox',
      'Acme Dev',
    ]);
    const named = await json<{ name: string }[]>(
      await s.tp.call('/api/v1/environments?environmentName=SANDBOX', { token }),
    );
    expect(named.map((e) => e.name)).toEqual(['Acme Sandbox']);
    const byTechnical = await json<{ name: string }[]>(
      await s.tp.call('/api/v1/environments?environmentName=prod-us', { token }),
    );
    expect(byTechnical.map((e) => e.name)).toEqual(['Acme Production US']);
  });

  it('answers 404 for unknown and malformed ids where the specification lists no 400', async () => {
    const token = await owner();
    for (const path of [
      '/api/v1/environments/0e000000-0000-4000-8000-0000000000ff',
      '/api/v1/environments/not-a-guid',
      '/api/v1/subscriptions/0a1b2c3d-0000-4000-8000-0000000000ff',
      '/api/v1/subscriptions/not-a-guid',
      '/api/v1/subscriptions/not-a-guid/users',
      '/api/v1/environments?subscriptionId=not-a-guid',
      '/api/v1/environments?subscriptionId=0a1b2c3d-0000-4000-8000-0000000000ff',
    ]) {
      const response = await s.tp.call(path, { token });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ status: 404, detail: expect.any(String) });
    }
  });

  it('lists users and returns one with roles and hasFullAccess', async () => {
    const token = await owner();
    const users = z
      .array(UserModel)
      .parse(await json(await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users`, { token })));
    expect(users.map((u) => u.id).sort()).toEqual(
      [USERS.owner, USERS.admin, USERS.member, USERS.envAdmin, USERS.contentUser, USERS.designer].sort(),
    );
    const admin = SubscriptionUserModel.parse(
      await json(
        await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users/${encodeURIComponent(USERS.admin)}`, { token }),
      ),
    );
    expect(admin).toMatchObject({
      subscriptionRoles: ['SubscriptionAdmin'],
      hasFullAccess: true,
      membershipType: 'Federated',
    });
    const designer = SubscriptionUserModel.parse(
      await json(
        await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users/${encodeURIComponent(USERS.designer)}`, {
          token,
        }),
      ),
    );
    expect(designer.hasFullAccess).toBe(false);
    expect(designer.environmentRoles).toEqual({
      [ENV_SANDBOX]: ['TemplateDesigner'],
      [ENV_DEV]: ['TemplateDesigner'],
    });
  });

  it('answers 400 for a malformed user id and 404 for an unknown one', async () => {
    const token = await owner();
    const bad = await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users/${encodeURIComponent('bad user!')}`, {
      token,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: { userId: expect.any(Array) } });
    expect((await s.tp.call(`/api/v1/subscriptions/not-a-guid/users/x`, { token })).status).toBe(400);
    expect((await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users/auth0%7Cnobody`, { token })).status).toBe(
      404,
    );
  });

  it('answers 400 naming the id that is missing where a malformed one is 400, after the token and its role', async () => {
    const token = await owner();
    const missing = async (path: string, field: string, init: { method?: string; body?: string } = {}) => {
      const reply = await s.tp.call(path, {
        token,
        ...init,
        ...(init.body ? { headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(reply.status, path).toBe(400);
      expect(Object.keys(((await reply.json()) as { errors: object }).errors), path).toEqual([field]);
    };
    await missing(`/api/v1/subscriptions/${SUB_A}/users/`, 'userId');
    await missing(`/api/v1/subscriptions//users/${USERS.owner}`, 'subscriptionId');
    await missing('/api/v1/subscriptions//renders?groupBy=month', 'subscriptionId');
    await missing('/api/v1/environments//renders?groupBy=month', 'environmentId');
    await missing('/api/v1/subscriptions//external-idp-domains', 'subscriptionId', {
      method: 'PUT',
      body: '[]',
    });
    expect((await s.tp.call(`/api/v1/subscriptions//users/${USERS.owner}`)).status).toBe(401);
    // Where a malformed id is 404 (the users list, a subscription), a missing one names nothing either.
    expect((await s.tp.call('/api/v1/subscriptions//users', { token })).status).toBe(404);
    // The list of the path above stays the list with a trailing slash.
    expect((await s.tp.call(`/api/v1/subscriptions/${SUB_A}/users`, { token })).status).toBe(200);
  });

  it('replaces, normalises and reads back the identity-provider domains', async () => {
    const token = await owner();
    const path = `/api/v1/subscriptions/${SUB_A}/external-idp-domains`;
    const put = (body: string) =>
      s.tp.call(path, { method: 'PUT', token, headers: { 'content-type': 'application/json' }, body });
    const ok = await put(JSON.stringify(['Login.Acme.example', 'bücher.example', 'login.acme.example']));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    expect(await json(await s.tp.call(path, { token }))).toEqual([
      'login.acme.example',
      'xn--bcher-kva.example',
    ]);
    const bad = await put(
      JSON.stringify(['ok.example', '*.acme.example', 'http://x.example', 7, '10.0.0.1', '']),
    );
    expect(bad.status).toBe(400);
    const problem = await json<{ errors: Record<string, string[]> }>(bad);
    expect(Object.keys(problem.errors).sort()).toEqual([
      'body[1]',
      'body[2]',
      'body[3]',
      'body[4]',
      'body[5]',
    ]);
    expect(await json(await s.tp.call(path, { token }))).toEqual([
      'login.acme.example',
      'xn--bcher-kva.example',
    ]);
    const tooMany = await put(JSON.stringify(Array.from({ length: 101 }, (_, i) => `d${i}.example`)));
    expect(tooMany.status).toBe(400);
    expect((await put('{"not":"an array"}')).status).toBe(400);
    expect((await put('[')).status).toBe(400);
    expect((await put('[]')).status).toBe(200);
    expect(await json(await s.tp.call(path, { token }))).toEqual([]);
    const malformed = await s.tp.call('/api/v1/subscriptions/xyz/external-idp-domains', {
      method: 'PUT',
      token,
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    expect(malformed.status).toBe(400);
  });
});
