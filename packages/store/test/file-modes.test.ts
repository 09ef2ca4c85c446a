/**
 * The migrated PGlite template a new embedded database is copied from (the package's build, and the one tests keep
 * in the temporary directory) and every database opened from a copy are owner-only: folders 0700, files 0600.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pgliteTestTemplate, testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';

const pglite = (await testBackends()).find((b) => b.name === 'pglite');

const openEntries = async (dir: string): Promise<string[]> => {
  const open: string[] = [];
  for (const path of [dir, ...(await readdir(dir, { recursive: true })).map((p) => join(dir, p))]) {
    const info = await stat(path);
    if ((info.mode & 0o777) !== (info.isDirectory() ? 0o700 : 0o600)) open.push(path);
  }
  return open;
};

describe.skipIf(!pglite)('file modes of embedded databases', () => {
  it('keeps the temporary template and a fresh copy owner-only', async () => {
    const database = await pglite!.fresh();
    try {
      expect(await openEntries(database.dataDir)).toEqual([]);
      expect(await openEntries(await pgliteTestTemplate())).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
