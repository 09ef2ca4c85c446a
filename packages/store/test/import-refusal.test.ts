import { ValidationError } from '@platform/core';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importDataFile } from '../src/import/import-data-file.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { tableCounts } from './counts.ts';
import { smallFile } from './fixture.ts';

const backends = await testBackends();

describe.each(backends)('an import the database refuses, on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('writes nothing and names the entry and the database rule, in the data file terms', async () => {
    const file = smallFile();
    await importDataFile(database, file);
    const before = await tableCounts(database.db);
    // A rule the import's own checks do not know, standing in for any state they cannot see (a damaged index,
    // a constraint an operator added): each user may belong to one subscription only.
    await database.db.execute(
      sql`create unique index test_one_subscription_per_user on memberships (user_id)`,
    );
    const second = {
      ...file,
      subscriptions: [
        ...file.subscriptions,
        {
          ...file.subscriptions[0]!,
          id: 102,
          guid: '10200000-0000-4000-8000-000000000001',
          clientId: '10200000-0000-4000-8000-000000000002',
          environments: [],
          members: [{ userId: 'auth0|bob', subscriptionRoles: ['SubscriptionMember'] }],
        },
      ],
      renderEvents: [],
    };
    const error = await importDataFile(database, second).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    const message = (error as ValidationError).message;
    expect(message).toMatch(/^subscriptions\[1\]\.members\[0\]: /);
    expect(message).toContain('test_one_subscription_per_user');
    expect(message).toContain('auth0|bob');
    expect(message).toContain('Nothing was imported');
    expect(await tableCounts(database.db)).toEqual(before);
  });
});
