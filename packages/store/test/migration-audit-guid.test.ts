import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { importDataFile } from '../src/import/import-data-file.ts';
import { migrate } from '../src/migrate.ts';
import { queryRows } from '../src/query-rows.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { migrateBefore } from './migrate-before.ts';

describe.each(await testBackends())('migrations 0011 and 0012 on $name', (backend) => {
  let database: TestDatabase | undefined;
  afterEach(() => database?.close());

  it('keep each entry written before with the guid of the subscription its integer id named, append-only still', async () => {
    database = await backend.fresh({ migrated: false });
    await migrateBefore(database, '0011');
    const guid = randomUUID();
    // Subscriptions are as they were: a data file writes one.
    await importDataFile(database, {
      subscriptions: [
        {
          id: 7,
          guid,
          name: 'acme',
          clientId: randomUUID(),
          subscriptionType: 'Saas',
          pricebookVersion: '1',
          subscriptionTier: 'Team',
        },
      ],
    });
    for (const subscriptionId of [7, null]) {
      await database.db.execute(
        sql`insert into audit_entries (id, at, actor_issuer, actor_subject, action, outcome, target_type, target_id, subscription_id, source_address, trace_id, changes)
            values (${randomUUID()}, now(), 'i', 's', 'tag.create', 'success', 'tag', 't', ${subscriptionId}, '203.0.113.7', ${'a'.repeat(32)}, '{}'::jsonb)`,
      );
    }
    await migrate(database);
    const rows = await queryRows<{ subscription_guid: string | null }>(
      database.db,
      sql`select subscription_guid from audit_entries order by subscription_guid nulls last`,
    );
    expect(rows).toEqual([{ subscription_guid: guid }, { subscription_guid: null }]);
    await expect(database.db.execute(sql`update audit_entries set action = 'forged'`)).rejects.toThrow();
  });
});
