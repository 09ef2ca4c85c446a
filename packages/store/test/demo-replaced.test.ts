import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importDataFile, queryRows, seedDemoData } from '../src/index.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';

const count = async (database: TestDatabase, table: string) =>
  Number((await queryRows<{ n: string }>(database.db, sql.raw(`select count(*) as n from ${table}`)))[0]?.n);

const own = {
  users: [{ id: 'auth0|alice', email: 'alice@example.com' }],
  subscriptions: [
    {
      id: 101,
      guid: '11111111-1111-4111-8111-111111111111',
      name: 'acme',
      clientId: '11111111-1111-4111-8111-111111111112',
      subscriptionType: 'Saas',
      pricebookVersion: '2025.1',
      subscriptionTier: 'Enterprise',
      environments: [
        {
          id: 1,
          guid: '11111111-1111-4111-8111-111111111113',
          name: 'Acme Production',
          technicalName: 'acme-prod',
          type: 'Production',
        },
      ],
      members: [{ userId: 'auth0|alice', subscriptionRoles: ['SubscriptionOwner'] }],
    },
  ],
};

describe.each(await testBackends())('demo data on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('is replaced whole by the first real import, even where ids and technical names collide', async () => {
    await seedDemoData(database, new Date());
    expect(await count(database, 'subscriptions')).toBeGreaterThan(1);
    await importDataFile(database, own);
    expect(await count(database, 'subscriptions')).toBe(1);
    expect(await count(database, 'users')).toBe(1);
    expect(await count(database, 'environments')).toBe(1);
    // From then on imports are plain upserts: a second file adds, it does not wipe.
    await importDataFile(database, { users: [{ id: 'auth0|bob', email: 'bob@example.com' }] });
    expect(await count(database, 'users')).toBe(2);
  });

  it('is left alone when nothing is imported, and never loaded over real data', async () => {
    await importDataFile(database, own);
    expect(await seedDemoData(database, new Date())).toBeUndefined();
    expect(await count(database, 'subscriptions')).toBe(1);
  });
});
