import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from './migrate.ts';
import { pgliteVersion, storePackageDir } from './package-dir.ts';
import { restrictTree } from './private-files.ts';

/**
 * A new embedded database starts as a copy of a migrated template that the package's build makes
 * (`npm run build -w @platform/store`, run by `npm ci`): copying some thousand files takes a fraction of what
 * PGlite's initdb and the first migrations take. The template carries a stamp of the PGlite version and the
 * migration files it was made with; a stale or missing template is not used (the database is then made as before).
 */
const templateDir = join(storePackageDir, 'dist', 'pglite-template');
const stampFile = join(storePackageDir, 'dist', 'pglite-template.stamp');

/** PGlite version and the content of every migration file: what the template must match. */
const currentStamp = (): string => {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const file of readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.sql') || file.endsWith('_journal.json'))
      hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex');
};

const templateIsCurrent = (): boolean => {
  try {
    return readFileSync(stampFile, 'utf8') === currentStamp();
  } catch {
    return false;
  }
};

/**
 * Puts a copy of the template at `dir` when `dir` holds no database yet and the template is current; returns
 * whether it did. The copy is made aside and renamed into place, so a crash never leaves half a database.
 */
export const copyPgliteTemplate = (dir: string): boolean => {
  if (existsSync(join(dir, 'PG_VERSION')) || !templateIsCurrent()) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  const aside = `${dir}.${process.pid}.new`;
  rmSync(aside, { recursive: true, force: true });
  cpSync(templateDir, aside, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(aside, dir);
  return true;
};

/** Makes the template (the package's build step); does nothing while the one there is current. */
export const buildPgliteTemplate = async (): Promise<'current' | 'built'> => {
  if (templateIsCurrent() && existsSync(join(templateDir, 'PG_VERSION'))) return 'current';
  await rm(templateDir, { recursive: true, force: true });
  await rm(stampFile, { force: true });
  await mkdir(templateDir, { recursive: true });
  const client = new PGlite(templateDir);
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
  } finally {
    await client.close();
  }
  await restrictTree(templateDir);
  await writeFile(stampFile, currentStamp());
  return 'built';
};
