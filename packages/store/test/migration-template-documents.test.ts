import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrationsFolder } from '../src/migrate.ts';
import { queryRows } from '../src/query-rows.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';

/** The migration folder as it was before template documents and external media ids (journal up to 0003). */
const foldersBefore = async (): Promise<string> => {
  const folder = await mkdtemp(join(tmpdir(), 'migrations-0003-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0004');
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
};

describe.each(await testBackends())('migration 0004 on $name', (backend) => {
  let database: TestDatabase | undefined;
  afterEach(() => database?.close());

  it('turns earlier template contents into JSON documents and keeps external media by their uuid', async () => {
    database = await backend.fresh({ migrated: false });
    const folder = await foldersBefore();
    if (database.kind === 'pglite')
      await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migrateNodePg(database.db as unknown as NodePgDatabase, { migrationsFolder: folder });

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
