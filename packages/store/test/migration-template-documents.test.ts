import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.ts';
import { queryRows } from '../src/query-rows.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { migrateBefore } from './migrate-before.ts';

describe.each(await testBackends())('migration 0004 on $name', (backend) => {
  let database: TestDatabase | undefined;
  afterEach(() => database?.close());

  it('turns earlier template contents into JSON documents and keeps external media by their uuid', async () => {
    database = await backend.fresh({ migrated: false });
    await migrateBefore(database, '0004');

    const contents = ['', '{"pages":[{"frames":[]}],"b":1}', 'plain text', '42', 'tab\there "quoted"'];
    const ids = contents.map(() => randomUUID());
    const externalMedia = randomUUID();
    // Rows without their environment: only the columns this migration touches matter here.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      for (const [i, content] of contents.entries()) {
        await tx.execute(
          sql`insert into templates (id, environment_id, name, content, created_at, content_modified_at)
              values (${ids[i]}, 1, ${`t${i}`}, ${content}, now(), now())`,
        );
      }
      await tx.execute(
        sql`insert into media (id, environment_id, external, name, created_at) values (${externalMedia}, 1, true, 'x', now())`,
      );
    });

    await migrate(database);
    const rows = await queryRows<{ id: string; content: string }>(
      database.db,
      sql`select id::text, content from templates`,
    );
    const byId = new Map(rows.map((row) => [row.id, row.content]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      'null',
      '{"pages":[{"frames":[]}],"b":1}',
      '"plain text"',
      '42',
      '"tab\\there \\"quoted\\""',
    ]);
    const [media] = await queryRows<{ external_id: string }>(
      database.db,
      sql`select external_id from media where id = ${externalMedia}`,
    );
    expect(media?.external_id).toBe(externalMedia);
  });
});
