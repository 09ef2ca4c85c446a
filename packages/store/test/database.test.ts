import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.ts';
import { openDatabase } from '../src/open-database.ts';
import { queryRows } from '../src/query-rows.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';

const backends = await testBackends();

describe.each(backends)('database on $name', (backend) => {
  const opened: TestDatabase[] = [];
  const fresh = async (options?: { migrated?: boolean }) => {
    const database = await backend.fresh(options);
    opened.push(database);
    return database;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
  });

  it('migrates a fresh schema, twice at once, and again without change', async () => {
    const database = await fresh({ migrated: false });
    // Two replicas starting together (two pools on PostgreSQL): both succeed, the second finds the journal applied.
    const replica = database.databaseUrl
      ? await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir })
      : database;
    try {
      await Promise.all([migrate(database), migrate(replica)]);
    } finally {
      if (replica !== database) await replica.close();
    }
    await migrate(database);
    const [tables] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
    );
    expect(tables?.n).toBeGreaterThanOrEqual(20);
    const [applied] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(applied?.n).toBeGreaterThanOrEqual(1);
  });

  it('serialises work under the same advisory lock key, not under different keys', async () => {
    const database = await fresh();
    const log: string[] = [];
    const task = (key: string, name: string, ms: number) =>
      database.withAdvisoryLock(key, async () => {
        log.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`${name}:end`);
        return name;
      });
    expect(await Promise.all([task('a', 'one', 60), task('a', 'two', 1)])).toEqual(['one', 'two']);
    expect(log).toEqual(['one:start', 'one:end', 'two:start', 'two:end']);
    log.length = 0;
    await Promise.all([task('a', 'one', 60), task('b', 'two', 1)]);
    expect(log.indexOf('two:end')).toBeLessThan(log.indexOf('one:end'));
    // A failing holder releases the lock.
    await expect(
      database.withAdvisoryLock('a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await task('a', 'after', 1)).toBe('after');
  });
});
