import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.ts';

/**
 * The embedded setup's secrets key: `${dataDir}/secrets.key` (base64 of 32 random bytes), created owner-only on
 * first use. Losing this file makes stored connector secrets unreadable, so it is never overwritten.
 */
export const loadOrCreateSecretsKey = async (dataDir: string): Promise<string> => {
  const file = join(dataDir, 'secrets.key');
  try {
    const key = (await readFile(file, 'utf8')).trim();
    // A key file an older version or a person left readable to others is closed on the next start.
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, PRIVATE_FILE_MODE);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await ensurePrivateDir(dataDir);
  const key = randomBytes(32).toString('base64');
  try {
    // `wx`: if another process created the file meanwhile, keep its key rather than replacing it.
    await writeFile(file, `${key}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
};
