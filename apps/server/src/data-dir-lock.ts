import { readFileSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir } from '@platform/store';

/**
 * One owner per embedded data folder (docs/configuration.md, "The data folder lock"): PGlite belongs to one
 * process, so `platform-server start`, and `import` or `migrate` when no server runs, hold `DATA_DIR/owner.lock`
 * while they have the database open. The file is created exclusively, complete (written aside, then linked into
 * place: link fails when the name exists), and names its holder: pid, command, the process's start identity and,
 * once a server listens, its address. A holder that no longer exists (its pid gone, or the pid now belongs to a
 * process started later) has left a stale lock, which the next owner takes over.
 */
export type LockHolder = {
  pid: number;
  command: string;
  /** Boot id and start time of the holder on Linux: a pid reused by another process does not pass for it. */
  identity: string | undefined;
  /** The server's address, once it listens. */
  url?: string;
};

export type DataDirLock = {
  /** Adds the server's address to the lock, where `import` and a refused second start read it. */
  announce(url: string): Promise<void>;
  release(): Promise<void>;
};

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by platform-server ${holder.command} (pid ${holder.pid}${
        holder.url ? `, serving ${holder.url}` : holder.command === 'start' ? ', starting' : ''
      }): one process owns an embedded database. Stop it first, or use another DATA_DIR.`,
    );
  }
}

const lockFile = (dataDir: string) => join(dataDir, 'owner.lock');

const identityOf = (pid: number): string | undefined => {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (start time in clock ticks since boot) counts from the end of the parenthesized command name.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime === undefined ? undefined : `${bootId}:${startTime}`;
  } catch {
    return undefined;
  }
};

const isAlive = (holder: LockHolder): boolean => {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return holder.identity === undefined || identityOf(holder.pid) === holder.identity;
};

const readHolder = async (dataDir: string): Promise<{ text: string; holder: LockHolder } | undefined> => {
  let text: string;
  try {
    text = await readFile(lockFile(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { text, holder: JSON.parse(text) as LockHolder };
  } catch {
    // Never written by this program (files are linked into place complete): nobody's lock.
    return { text, holder: { pid: 0, command: 'unknown', identity: undefined } };
  }
};

/** The live holder of the folder's lock, if any. */
export const lockHolder = async (dataDir: string): Promise<LockHolder | undefined> => {
  const read = await readHolder(dataDir);
  return read && isAlive(read.holder) ? read.holder : undefined;
};

/** Writes `content` aside and links it to `target`: the name appears complete, and only if it did not exist. */
const createComplete = async (target: string, content: string): Promise<boolean> => {
  const aside = `${target}.${process.pid}.new`;
  await writeFile(aside, content, { mode: 0o600 });
  try {
    await link(aside, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(aside).catch(() => {});
  }
};

/**
 * Takes the folder's lock for `command`, or throws DataDirBusyError naming the live holder. A stale lock is
 * taken over, and `say` tells so in one line.
 */
export const acquireDataDirLock = async (
  dataDir: string,
  command: string,
  say: (line: string) => void,
): Promise<DataDirLock> => {
  await ensurePrivateDir(dataDir);
  const file = lockFile(dataDir);
  let holder: LockHolder = { pid: process.pid, command, identity: identityOf(process.pid) };
  for (let attempt = 0; ; attempt++) {
    if (await createComplete(file, JSON.stringify(holder))) break;
    const existing = await readHolder(dataDir);
    if (!existing) continue;
    if (isAlive(existing.holder)) throw new DataDirBusyError(dataDir, existing.holder);
    if (attempt >= 5) throw new DataDirBusyError(dataDir, existing.holder);
    // Move the stale lock aside, then check it was the stale one: a starter racing us may have just replaced it
    // with its own, live lock, which then goes back into place.
    const aside = `${file}.${process.pid}.stale`;
    try {
      await rename(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = await readFile(aside, 'utf8');
    if (moved !== existing.text) {
      await link(aside, file).catch(() => {});
      await unlink(aside);
      continue;
    }
    await unlink(aside);
    say(
      `Taking over the lock of DATA_DIR ${dataDir}: its holder (platform-server ${existing.holder.command}, pid ${existing.holder.pid}) no longer runs.`,
    );
  }
  return {
    async announce(url) {
      holder = { ...holder, url };
      const aside = `${file}.${process.pid}.new`;
      await writeFile(aside, JSON.stringify(holder), { mode: 0o600 });
      await rename(aside, file);
    },
    async release() {
      const current = await readHolder(dataDir);
      if (current?.holder.pid === process.pid) await unlink(file).catch(() => {});
    },
  };
};
