import { ValidationError } from '@platform/core';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importDataFile } from '../src/import/import-data-file.ts';
import { queryRows } from '../src/query-rows.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { tableCounts } from './counts.ts';
import { smallFile } from './fixture.ts';

const backends = await testBackends();

const rejection = async (promise: Promise<unknown>): Promise<ValidationError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
};

describe.each(backends)('importDataFile on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('imports a file, and importing it again changes nothing', async () => {
    const file = smallFile();
    const summary = await importDataFile(database, file);
    expect(summary).toMatchObject({
      users: 2,
      subscriptions: 1,
      environments: 3,
      newEnvironments: 3,
      members: 2,
    });
    const first = await tableCounts(database.db);
    expect(first).toMatchObject({
      users: 2,
      subscriptions: 1,
      environments: 3,
      memberships: 2,
      environment_roles: 2,
      external_idp_domains: 2,
      subject_types: 30,
      renders: 8,
    });
    const daily = await queryRows<{ day: string; kind: string; count: number }>(
      database.db,
      sql`select day::text as day, kind, count::int as count from render_daily order by day, kind`,
    );
    // 23:30 at -02:00 is 01:30 UTC on the next day.
    expect(daily).toEqual([
      { day: '2026-01-01', kind: 'Pdf', count: 5 },
      { day: '2026-01-02', kind: 'Image', count: 1 },
      { day: '2026-01-02', kind: 'Pdf', count: 2 },
    ]);
    const domains = await queryRows<{ domain: string }>(
      database.db,
      sql`select domain from external_idp_domains order by position`,
    );
    expect(domains.map((d) => d.domain)).toEqual(['acme.example', 'xn--bcher-kva.example']);

    await importDataFile(database, file);
    expect(await tableCounts(database.db)).toEqual(first);
  });

  it('applies the difference when an imported event changes, and replaces lists of a subscription', async () => {
    const file = smallFile();
    await importDataFile(database, file);
    const changed = structuredClone(file);
    changed.renderEvents[0]!.count = 9;
    const subscription = changed.subscriptions[0]!;
    subscription.environments.pop();
    subscription.members.pop();
    subscription.externalIdpDomains = [];
    await importDataFile(database, changed);
    expect(await tableCounts(database.db)).toMatchObject({
      environments: 2,
      memberships: 1,
      environment_roles: 1,
      external_idp_domains: 0,
      subject_types: 20,
      renders: 12,
    });
  });

  it('moves an environment with its renders to the subscription that lists it, whichever comes first in the file', async () => {
    for (const newcomerFirst of [false, true]) {
      const file = smallFile();
      await importDataFile(database, file);
      const before = await tableCounts(database.db);
      const moved = structuredClone(file);
      const acme = moved.subscriptions[0]!;
      const prod = acme.environments.shift()!;
      acme.members[0]!.environmentRoles = {};
      const globex = {
        ...structuredClone(acme),
        id: 202,
        guid: crypto.randomUUID(),
        name: 'globex',
        displayName: 'Globex',
        clientId: crypto.randomUUID(),
        externalIdpDomains: [],
        licenses: [],
        environments: [prod],
        members: [],
      };
      moved.subscriptions = newcomerFirst ? [globex, acme] : [acme, globex];
      moved.renderEvents = [];
      await importDataFile(database, moved);
      const rows = await queryRows<{ subscription: string; renders: number }>(
        database.db,
        sql`select s.name as subscription, coalesce(sum(d.count), 0)::int as renders
            from environments e join subscriptions s on s.id = e.subscription_id
            left join render_daily d on d.environment_id = e.id
            where e.id = ${prod.id} group by s.name`,
      );
      expect(rows, `globex listed ${newcomerFirst ? 'first' : 'second'}`).toEqual([
        { subscription: 'globex', renders: 7 },
      ]);
      expect((await tableCounts(database.db)).renders).toBe(before.renders);
      await database.close();
      database = await backend.fresh();
    }
  });

  it('keeps lists the file leaves out', async () => {
    const file = smallFile();
    await importDataFile(database, file);
    const {
      environments: _e,
      members: _m,
      externalIdpDomains: _d,
      licenses: _l,
      ...bare
    } = file.subscriptions[0]!;
    await importDataFile(database, { subscriptions: [{ ...bare, name: 'acme-renamed' }] });
    const counts = await tableCounts(database.db);
    expect(counts).toMatchObject({ environments: 3, memberships: 2, external_idp_domains: 2 });
    const [row] = await queryRows<{ name: string; licenses: string }>(
      database.db,
      sql`select name, licenses_json as licenses from subscriptions`,
    );
    expect(row?.name).toBe('acme-renamed');
    expect(JSON.parse(row?.licenses ?? 'null')).toHaveLength(1);
  });

  it('rejects a bad file whole, naming the first bad path', async () => {
    const file = smallFile() as unknown as { subscriptions: { environments: Record<string, unknown>[] }[] };
    file.subscriptions[0]!.environments[2]!.type = 'Staging';
    file.subscriptions[0]!.environments[1]!.name = '';
    const error = await rejection(importDataFile(database, file));
    expect(error.message).toMatch(/^subscriptions\[0\]\.environments\[1\]\.name: /);
    expect(Object.keys(error.errors ?? {})).toEqual([
      'subscriptions[0].environments[1].name',
      'subscriptions[0].environments[2].type',
    ]);
    expect((await tableCounts(database.db)).users).toBe(0);

    const typeOnly = smallFile() as unknown as {
      subscriptions: { environments: Record<string, unknown>[] }[];
    };
    typeOnly.subscriptions[0]!.environments[2]!.type = 'Staging';
    const second = await rejection(importDataFile(database, typeOnly));
    expect(second.message).toMatch(/^subscriptions\[0\]\.environments\[2\]\.type: Invalid option/);
  });

  it('refuses a misspelt key and a bad date, naming their paths and the key meant', async () => {
    const file = smallFile() as unknown as {
      subscriptions: (Record<string, unknown> & { environments: Record<string, unknown>[] })[];
    };
    const environment = file.subscriptions[0]!.environments[0]!;
    environment.tecnicalName = environment.technicalName;
    delete environment.technicalName;
    file.subscriptions[0]!.startDate = '01/01/2025';
    file.subscriptions[0]!.endDate = '2025-02-30';
    const error = await rejection(importDataFile(database, file));
    expect(error.errors).toEqual({
      'subscriptions[0].startDate': ['must be a calendar date as yyyy-MM-dd'],
      'subscriptions[0].endDate': ['must be a calendar date as yyyy-MM-dd'],
      'subscriptions[0].environments[0].tecnicalName': ['unknown key; did you mean technicalName?'],
    });
    expect(error.message).toContain(
      'subscriptions[0].environments[0].tecnicalName: unknown key; did you mean technicalName?',
    );
    expect((await tableCounts(database.db)).users).toBe(0);
    // The misspelt key alone: its question ends its own sentence (no `?.`).
    const misspelt = smallFile() as unknown as Record<string, unknown>;
    misspelt.subscriptionz = misspelt.subscriptions;
    delete misspelt.subscriptions;
    expect((await rejection(importDataFile(database, misspelt))).message).toBe(
      'subscriptionz: unknown key; did you mean subscriptions? Nothing was imported.',
    );
  });

  it('rejects broken references and duplicates, writing nothing', async () => {
    const file = smallFile();
    const [prod, sandbox] = file.subscriptions[0]!.environments;
    file.users.push({ ...file.users[0]!, email: 'again@example.com' });
    file.subscriptions[0]!.environments.push({ ...sandbox!, id: 4, technicalName: 'ACME-PROD' });
    file.subscriptions[0]!.members.push({
      userId: 'auth0|nobody',
      environmentRoles: { [crypto.randomUUID()]: [] },
    });
    file.subscriptions[0]!.externalIdpDomains.push('*.acme.example');
    file.renderEvents.push({
      environmentGuid: crypto.randomUUID(),
      kind: 'Pdf',
      at: '2026-01-01T00:00:00Z',
      count: 1,
    });
    const error = await rejection(importDataFile(database, file));
    const paths = Object.keys(error.errors ?? {});
    expect(error.message).toMatch(/^users\[2\]\.id: duplicate user id/);
    expect(paths).toEqual(
      expect.arrayContaining([
        'users[2].id',
        'subscriptions[0].environments[3].guid',
        'subscriptions[0].environments[3].technicalName',
        'subscriptions[0].externalIdpDomains[3]',
        'subscriptions[0].members[2].userId',
        expect.stringMatching(/^subscriptions\[0\]\.members\[2\]\.environmentRoles\./),
        'renderEvents[3].environmentGuid',
      ]),
    );
    expect(prod).toBeDefined();
    expect(await tableCounts(database.db)).toMatchObject({ users: 0, subscriptions: 0, render_daily: 0 });
  });

  it('checks references against the database: members and render events may name stored rows', async () => {
    const file = smallFile();
    await importDataFile(database, file);
    const guid = file.subscriptions[0]!.environments[0]!.guid;
    await importDataFile(database, {
      renderEvents: [
        { environmentGuid: guid.toUpperCase(), kind: 'Mp4', at: '2026-02-01T00:00:00Z', count: 3 },
      ],
    });
    expect((await tableCounts(database.db)).renders).toBe(11);
    // Another subscription may not take a stored environment's technical name or guid.
    const other = smallFile().subscriptions[0]!;
    other.id = 102;
    other.environments = [{ ...other.environments[0]!, id: 10, technicalName: 'Acme-Prod' }];
    other.members = [
      { userId: 'auth0|alice', subscriptionRoles: ['SubscriptionAdmin'], environmentRoles: {} },
    ];
    const error = await rejection(importDataFile(database, { subscriptions: [other] }));
    expect(Object.keys(error.errors ?? {})).toEqual(['subscriptions[0].environments[0].technicalName']);
  });

  it('reports progress for large files', async () => {
    const file = smallFile();
    const guid = file.subscriptions[0]!.environments[0]!.guid;
    file.renderEvents = Array.from({ length: 25_000 }, (_, i) => ({
      environmentGuid: guid,
      kind: i % 2 ? 'Pdf' : 'Image',
      at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
      count: 1,
    }));
    const calls: [number, number][] = [];
    await importDataFile(database, file, { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.at(-1)).toEqual([calls.at(-1)![1], calls.at(-1)![1]]);
    expect((await tableCounts(database.db)).renders).toBe(25_000);
  });
});
