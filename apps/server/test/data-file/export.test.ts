import { readFile } from 'node:fs/promises';
import { DEMO_OWNER_ID, exportDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const OPERATOR = ['platform:read', 'platform:write', 'platform:admin'];

/** Every GET of the administration API over the data a platform holds, as one object: path → status and body. */
const answers = async (tp: TestPlatform, sub: string, roles: string[]): Promise<Record<string, unknown>> => {
  const token = await tp.token(sub, roles);
  const out: Record<string, unknown> = {};
  const get = async <T>(path: string): Promise<T> => {
    const response = await tp.call(path, { token });
    const body = (await response.json()) as T;
    out[path] = { status: response.status, body };
    return body;
  };
  const subscriptions = await get<{ guid: string }[]>('/api/v1/subscriptions');
  for (const { guid } of subscriptions) {
    const base = `/api/v1/subscriptions/${guid}`;
    await get(base);
    for (const query of ['groupBy=year', 'groupBy=month', 'groupBy=year&top=2', 'groupBy=month&top=1'])
      await get(`${base}/renders?${query}`);
    await get(`${base}/renders?groupBy=year&startDate=2024-01-01&endDate=2026-12-31`);
    await get(`${base}/external-idp-domains`);
    const users = await get<{ id: string }[]>(`${base}/users`);
    for (const { id } of Array.isArray(users) ? users : [])
      await get(`${base}/users/${encodeURIComponent(id)}`);
  }
  const environments = await get<{ guid: string }[]>('/api/v1/environments');
  for (const { guid } of environments) {
    await get(`/api/v1/environments/${guid}`);
    await get(`/api/v1/environments/${guid}/renders?groupBy=year`);
    await get(`/api/v1/environments/${guid}/renders?groupBy=month`);
  }
  return out;
};

describe.each(await testBackends())('platform-server export on $name', (backend) => {
  let source: TestPlatform;
  let target: TestPlatform;
  beforeAll(async () => {
    source = await startTestPlatform(backend, { DEMO_DATA: 'true' });
    target = await startTestPlatform(backend);
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('refuses over HTTP a misspelt key and a bad date, naming their paths, and writes nothing', async () => {
    const file = JSON.parse(
      await readFile(new URL('../../../../examples/data.json', import.meta.url), 'utf8'),
    );
    const environment = file.subscriptions[0].environments[0];
    environment.tecnicalName = environment.technicalName;
    delete environment.technicalName;
    file.subscriptions[0].startDate = '01/01/2025';
    const response = await target.call('/api/v1/imports', {
      method: 'POST',
      token: await target.token('ops|export-test', OPERATOR),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(file),
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { detail: string; errors: Record<string, string[]> };
    expect(problem.errors).toEqual({
      'subscriptions[0].startDate': ['must be a calendar date as yyyy-MM-dd'],
      'subscriptions[0].environments[0].tecnicalName': ['unknown key; did you mean technicalName?'],
    });
    expect(problem.detail).toContain('Nothing was imported');
    const subscriptions = await target.call('/api/v1/subscriptions', {
      token: await target.token('ops|export-test', OPERATOR),
    });
    expect(await subscriptions.json()).toEqual([]);
  });

  it('writes the demo data as a file that imports into an empty database with the same answers', async () => {
    const file = await exportDataFile(source.database.db);
    expect(file.subscriptions.length).toBeGreaterThan(0);
    expect(file.renderEvents.length).toBeGreaterThan(0);

    const imported = await target.call('/api/v1/imports', {
      method: 'POST',
      token: await target.token('ops|export-test', OPERATOR),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(file),
    });
    expect(imported.status, await imported.clone().text()).toBe(200);

    for (const [sub, roles] of [
      ['ops|export-test', OPERATOR],
      [DEMO_OWNER_ID, ['platform:read']],
    ] as const) {
      const before = await answers(source, sub, [...roles]);
      expect(Object.keys(before).length).toBeGreaterThan(20);
      expect(await answers(target, sub, [...roles])).toEqual(before);
    }

    // The file is a fixed point: what the target holds exports to the same file, but for the audit entry of the
    // import itself (docs/audit.md), the one entry the target holds that the file did not.
    const again = await exportDataFile(target.database.db);
    const held = new Set(file.auditEntries.map((entry) => entry.id));
    const added = again.auditEntries.filter((entry) => !held.has(entry.id));
    expect(added.map((entry) => [entry.action, entry.actor.subject])).toEqual([
      ['data.import', 'ops|export-test'],
    ]);
    expect({ ...again, auditEntries: again.auditEntries.filter((entry) => held.has(entry.id)) }).toEqual(
      file,
    );
  }, 240_000);
});

describe.each(await testBackends())('an environment moved by import on $name', (backend) => {
  let first: TestPlatform;
  let second: TestPlatform;
  beforeAll(async () => {
    first = await startTestPlatform(backend);
    second = await startTestPlatform(backend);
  }, 120_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  const subscription = (id: number, guid: string) => ({
    id,
    guid,
    name: `s${id}`,
    clientId: 'aaaaaaaa-0000-4000-8000-000000000004',
    subscriptionType: 'Saas',
    pricebookVersion: '1',
    subscriptionTier: 'x',
    environments: [
      { id: 9101, guid: 'aaaaaaaa-0000-4000-8000-000000000003', name: 'moved', type: 'Production' },
    ],
  });
  const post = async (tp: TestPlatform, file: unknown) => {
    const response = await tp.call('/api/v1/imports', {
      method: 'POST',
      token: await tp.token('ops|move-test', OPERATOR),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(file),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  it("drops the old subscription's roles on it, and exports a file that gives the same answers", async () => {
    await post(first, {
      users: [{ id: 'mv|u', email: 'u@example.com' }],
      subscriptions: [
        {
          ...subscription(301, 'aaaaaaaa-0000-4000-8000-000000000001'),
          members: [
            {
              userId: 'mv|u',
              environmentRoles: { 'aaaaaaaa-0000-4000-8000-000000000003': ['EnvironmentAdmin'] },
            },
          ],
        },
      ],
    });
    await post(first, { subscriptions: [subscription(302, 'aaaaaaaa-0000-4000-8000-000000000002')] });

    // No longer a member of the environment's subscription: neither it nor its subscription is visible to them.
    const member = await first.token('mv|u', ['platform:read']);
    expect(await (await first.call('/api/v1/subscriptions', { token: member })).json()).toEqual([]);
    expect(await (await first.call('/api/v1/environments', { token: member })).json()).toEqual([]);

    await post(second, await exportDataFile(first.database.db));
    for (const [sub, roles] of [
      ['ops|move-test', OPERATOR],
      ['mv|u', ['platform:read']],
    ] as const) {
      expect(await answers(second, sub, [...roles])).toEqual(await answers(first, sub, [...roles]));
    }
  }, 120_000);
});
