import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importDataFile } from '../src/import/import-data-file.ts';
import { ingestRenderEvents } from '../src/renders/ingest-render-events.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import type { ChangeWatch } from '../src/types.ts';
import { smallFile } from './fixture.ts';

const backends = await testBackends();

const until = async (condition: () => boolean, what: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each(backends)('watchChanges on $name', (backend) => {
  let database: TestDatabase;
  let watch: ChangeWatch;
  let changes: number;
  let guids: string[];
  beforeEach(async () => {
    database = await backend.fresh();
    const file = smallFile();
    await importDataFile(database, file);
    guids = file.subscriptions[0]!.environments.map((e) => e.guid);
    changes = 0;
    watch = await database.watchChanges(() => changes++);
    // Starting to listen counts as a change (on PostgreSQL): what happened before is unknown.
    await new Promise((resolve) => setTimeout(resolve, 50));
    changes = 0;
  });
  afterEach(async () => {
    await watch.stop();
    await database.close();
  });

  it('is told of every committed write to the watched tables, once per transaction', async () => {
    expect(watch.live).toBe(true);
    await ingestRenderEvents(database, [
      { environmentGuid: guids[0]!, kind: 'Pdf', at: new Date().toISOString() },
    ]);
    await until(() => changes > 0, 'the ingest notification');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The batch wrote render_daily and render_monthly in one transaction: one notification.
    expect(changes).toBe(1);

    await database.db.execute(sql`update subscriptions set name = 'renamed'`);
    await until(() => changes > 1, 'the update notification');
  });

  it("is told of writes to the environment API's content and the proxy's connector configuration", async () => {
    // Each statement touches no row: a statement-level trigger still fires, which is all the caches need.
    for (const table of [
      'connectors',
      'connector_auth',
      'connector_shared_headers',
      'templates',
      'tags',
      'template_tags',
      'subject_types',
      'media',
      'media_subject_types',
    ]) {
      const before = changes;
      await database.db.execute(sql.raw(`delete from ${table} where false`));
      await until(() => changes > before, `the notification of ${table}`);
    }
  });

  it('is not told of a rolled-back transaction nor of writes to other tables', async () => {
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update subscriptions set name = 'never'`);
        throw new Error('roll back');
      })
      .catch(() => {});
    await database.db.execute(sql`delete from oauth_login_states`);
    // The proxy writes tokens on its own path: nothing cached depends on them.
    await database.db.execute(sql`delete from connector_tokens`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes).toBe(0);
  });

  it.skipIf(backend.name !== 'postgres')(
    'turns not live when its connection is lost, then listens again by itself',
    async () => {
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where query = 'listen platform_changes' and datname = current_database()`,
      );
      await until(() => !watch.live, 'the loss');
      expect(changes).toBeGreaterThan(0);
      await until(() => watch.live, 'the new connection');
      const before = changes;
      await database.db.execute(sql`update users set first_name = 'x'`);
      await until(() => changes > before, 'a notification on the new connection');
    },
  );
});
