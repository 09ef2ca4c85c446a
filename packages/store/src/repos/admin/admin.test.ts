import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  environmentRoles,
  environments,
  memberships,
  renderDaily,
  subscriptions,
  users,
} from '../../schema/admin.ts';
import { type TestDatabase, testBackends } from '../../test-support.ts';
import { findEnvironmentByGuid, listEnvironments, usedStorage } from './environments.ts';
import { listIdpDomains, replaceIdpDomains } from './idp-domains.ts';
import { countTemplateDesigners, findMembership, findSubscriptionWithMembership } from './memberships.ts';
import { averageDailyRenders, listRenderRows, sumRenders } from './renders.ts';
import { findSubscriptionByGuid, listAllSubscriptions, listSubscriptionsVisibleTo } from './subscriptions.ts';
import { listSubscriptionUsers } from './users.ts';

const SUB = '5b000000-0000-4000-8000-000000000001';
const SUB2 = '5b000000-0000-4000-8000-000000000002';
const guid = (n: number) => `e5000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const subscription = (id: number, guidValue: string) => ({
  id,
  guid: guidValue,
  name: `s${id}`,
  displayName: `S${id}`,
  clientId: guidValue,
  status: 'Active',
  subscriptionType: 'Saas',
  isPlatformPricebook: false,
  pricebookVersion: '1',
  isWhitelabeled: false,
  subscriptionTier: 'T',
  maxTemplates: 1,
  averageRendersPeriodDays: 3,
  overdueInvoices: false,
  isPublisherEnabled: false,
  isStudioEnabled: false,
});

/** Rows written directly (not through the importer), so stored data the importer would refuse can be tried. */
const seed = async (database: TestDatabase) => {
  const { db } = database;
  await db
    .insert(users)
    .values(['u|owner', 'u|odd', 'u|env', 'u|none', 'U|upper'].map((id) => ({ id, email: `${id}@x` })));
  await db.insert(subscriptions).values([subscription(2, SUB2), subscription(1, SUB)]);
  await db.insert(environments).values([
    {
      id: 1,
      guid: guid(1),
      subscriptionId: 1,
      name: 'beta',
      type: 'Production',
      storageAssets: 1,
      storageOther: 2,
    },
    { id: 2, guid: guid(2), subscriptionId: 1, name: 'Zulu', type: 'Production', technicalName: 'zulu_1' },
    { id: 3, guid: guid(3), subscriptionId: 1, name: 'alpha 100%', type: 'Development' },
    { id: 4, guid: guid(4), subscriptionId: 1, name: 'Sand', type: 'Sandbox' },
    { id: 5, guid: guid(5), subscriptionId: 2, name: 'Other', type: 'Production' },
  ]);
  await db.insert(memberships).values([
    { subscriptionId: 1, userId: 'u|owner', subscriptionRoles: ['SubscriptionOwner'] },
    // Unknown role codes in stored data grant nothing.
    { subscriptionId: 1, userId: 'u|odd', subscriptionRoles: ['Superuser'] },
    {
      subscriptionId: 2,
      userId: 'U|upper',
      subscriptionRoles: ['SubscriptionMember'],
      membershipType: 'Federated',
    },
  ]);
  await db.insert(environmentRoles).values([
    { environmentId: 4, userId: 'u|env', roles: ['TemplateDesigner'] },
    { environmentId: 3, userId: 'u|owner', roles: ['TemplateDesigner', 'EnvironmentAdmin'] },
    { environmentId: 1, userId: 'u|odd', roles: ['Bogus'] },
    { environmentId: 5, userId: 'u|env', roles: ['TemplateDesigner'] },
  ]);
  await db.insert(renderDaily).values([
    { environmentId: 1, day: '2026-03-01', kind: 'Pdf', watermarked: false, count: 5 },
    { environmentId: 1, day: '2026-03-01', kind: 'Pdf', watermarked: true, count: 2 },
    { environmentId: 2, day: '2026-03-03', kind: 'Image', watermarked: false, count: 7 },
    { environmentId: 2, day: '2026-02-28', kind: 'Image', watermarked: false, count: 100 },
    { environmentId: 5, day: '2026-03-02', kind: 'Pdf', watermarked: false, count: 1000 },
  ]);
  // Ingestion and import keep render_monthly equal to the monthly sums of render_daily; so does this fixture.
  await db.execute(sql`insert into render_monthly
    select environment_id, date_trunc('month', day)::date, kind, watermarked, sum(count)
    from render_daily group by 1, 2, 3, 4`);
};

const backends = await testBackends();

describe.each(backends)('admin repos on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.fresh();
    await seed(database);
  }, 120_000);
  afterAll(() => database?.close());

  it('visibility counts only the role codes docs/authentication.md defines', async () => {
    const ids = async (userId: string) =>
      (await listSubscriptionsVisibleTo(database.db, userId)).map((s) => s.id);
    expect(await ids('u|owner')).toEqual([1]);
    expect(await ids('u|odd')).toEqual([]);
    expect(await ids('u|env')).toEqual([1, 2]);
    expect(await ids('u|none')).toEqual([]);
    expect((await listAllSubscriptions(database.db)).map((s) => s.id)).toEqual([1, 2]);
    const names = async (userId: string) =>
      (await listEnvironments(database.db, { visibleTo: userId, subscriptionId: 1 })).map((e) => e.name);
    expect(await names('u|odd')).toEqual([]);
    expect(await names('u|env')).toEqual(['Sand']);
  });

  it('orders by type, then name in code-point order, on every backend', async () => {
    expect((await listEnvironments(database.db)).map((e) => e.name)).toEqual([
      'Other',
      'Zulu',
      'beta',
      'Sand',
      'alpha 100%',
    ]);
    expect((await listSubscriptionUsers(database.db, 1)).map((u) => [u.id, u.membershipType])).toEqual([
      ['u|env', null],
      ['u|odd', 'Invitation'],
      ['u|owner', 'Invitation'],
    ]);
  });

  it('name filters treat LIKE metacharacters literally', async () => {
    const names = async (name: string) => (await listEnvironments(database.db, { name })).map((e) => e.name);
    expect(await names('%')).toEqual(['alpha 100%']);
    expect(await names('_')).toEqual(['Zulu']);
    expect(await names('ZULU_')).toEqual(['Zulu']);
    expect(await names('')).toHaveLength(5);
  });

  it('environment and membership lookups', async () => {
    const env = await findEnvironmentByGuid(database.db, guid(1).toUpperCase());
    expect(env).toMatchObject({ id: 1, subscriptionGuid: SUB, isPlatformPricebook: false });
    expect(env && usedStorage(env)).toBe(3);
    expect(await findEnvironmentByGuid(database.db, guid(99))).toBeUndefined();
    expect(await findMembership(database.db, 1, 'u|env')).toEqual({
      subscriptionRoles: [],
      environmentRoles: { [guid(4)]: ['TemplateDesigner'] },
      membershipType: null,
    });
    expect(await findMembership(database.db, 1, 'u|none')).toBeUndefined();
    expect(await countTemplateDesigners(database.db, 1)).toBe(2);
    expect(await countTemplateDesigners(database.db, 2)).toBe(1);
  });

  it('reads a subscription with a membership in one statement, as the two lookups would', async () => {
    const subscription = await findSubscriptionByGuid(database.db, SUB);
    for (const userId of ['u|owner', 'u|odd', 'u|env', 'U|upper', 'u|none']) {
      expect(await findSubscriptionWithMembership(database.db, SUB, userId)).toEqual({
        subscription,
        membership: await findMembership(database.db, 1, userId),
      });
    }
    expect(await findSubscriptionWithMembership(database.db, guid(99), 'u|owner')).toBeUndefined();
  });

  it('render sums over inclusive day ranges', async () => {
    const march = { startDay: '2026-03-01', endDay: '2026-03-31' };
    expect(await sumRenders(database.db, { subscriptionId: 1 }, march)).toEqual({
      renders: 12,
      watermarkedRenders: 2,
    });
    expect(
      await sumRenders(database.db, { environmentId: 2 }, { startDay: '2026-02-28', endDay: '2026-02-28' }),
    ).toEqual({
      renders: 100,
      watermarkedRenders: 0,
    });
    expect(await sumRenders(database.db, { environmentId: 4 }, march)).toEqual({
      renders: 0,
      watermarkedRenders: 0,
    });
    expect(
      await averageDailyRenders(
        database.db,
        { subscriptionId: 1 },
        { startDay: '2026-03-01', endDay: '2026-03-03', count: 3 },
      ),
    ).toEqual({ renders: 4, watermarkedRenders: 0 });
    const rows = await listRenderRows(
      database.db,
      { subscriptionId: 1 },
      { startDay: '2026-03-01', endDay: '2026-03-02' },
    );
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual({
      environmentGuid: guid(1),
      day: '2026-03-01',
      kind: 'Pdf',
      watermarked: true,
      count: 2,
    });
  });

  it('replaces identity-provider domains whole, in order', async () => {
    await replaceIdpDomains(database.db, 1, ['b.example', 'a.example']);
    expect(await listIdpDomains(database.db, 1)).toEqual(['b.example', 'a.example']);
    await replaceIdpDomains(database.db, 1, ['a.example']);
    expect(await listIdpDomains(database.db, 1)).toEqual(['a.example']);
    await replaceIdpDomains(database.db, 1, []);
    expect(await listIdpDomains(database.db, 1)).toEqual([]);
  });
});
