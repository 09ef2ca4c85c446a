import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders the server keeps data in: only their owner may list, enter or write them. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files of those folders: only their owner may read or write them. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) owner-only, or makes an existing one so. A shared folder with the sticky bit
 * (`/tmp` given as DATA_DIR by mistake) is left as it is: it is not the server's to close, and what the server
 * writes inside it is owner-only all the same (docs/configuration.md).
 */
export const ensurePrivateDir = async (dir: string): Promise<void> => {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const { mode } = await stat(dir);
  const sticky = (mode & 0o1000) !== 0;
  if (!sticky && (mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(dir, PRIVATE_DIR_MODE);
};

/**
 * Makes every folder below `dir` (itself included) 0700 and every file 0600. PGlite's cluster creation leaves
 * its files 0666 whatever the umask (its file system layer sets the mode itself) and it rewrites its relation
 * cache files 0644 at each start, so a folder it wrote, or a copy of one, is closed this way once it is open;
 * a file it adds later is inside folders no one else can enter.
 */
export const restrictTree = async (dir: string): Promise<void> => {
  await chmod(dir, PRIVATE_DIR_MODE);
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  await Promise.all(
    entries.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      if (entry.isDirectory()) return chmod(path, PRIVATE_DIR_MODE);
      if (entry.isFile()) return chmod(path, PRIVATE_FILE_MODE);
      return undefined;
    }),
  );
};
