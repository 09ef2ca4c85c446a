import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The embedded setup's secrets key: `${dataDir}/secrets.key` (base64 of 32 random bytes), created owner-only on
 * first use. Losing this file makes stored connector secrets unreadable, so it is never overwritten.
 */
export const loadOrCreateSecretsKey = async (dataDir: string): Promise<string> => {
  const file = join(dataDir, 'secrets.key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  try {
    // `wx`: if another process created the file meanwhile, keep its key rather than replacing it.
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
};
