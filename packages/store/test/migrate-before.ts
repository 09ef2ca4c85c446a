import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../src/migrate.ts';
import type { TestDatabase } from '../src/test-support.ts';

/**
 * Brings an unmigrated database to the schema as it was before migration `tag` (`'0010'`): the migrations folder
 * copied with its journal cut there, so a test can write rows as an older release did, then migrate the rest.
 */
export const migrateBefore = async (database: TestDatabase, tag: string): Promise<void> => {
  const folder = await mkdtemp(join(tmpdir(), `migrations-before-${tag}-`));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < tag);
  await writeFile(journalFile, JSON.stringify(journal));
  if (database.kind === 'pglite')
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
  else await migrateNodePg(database.db as unknown as NodePgDatabase, { migrationsFolder: folder });
};
