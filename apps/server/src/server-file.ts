import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir } from '@platform/store';

/**
 * A running server leaves `server.json` in DATA_DIR. The embedded database belongs to one process only, so
 * `platform-server import` hands its file to the running server instead of opening the database beside it.
 */
export type ServerFile = { pid: number; url: string; embedded: boolean };

const fileOf = (dataDir: string) => join(dataDir, 'server.json');

export const writeServerFile = async (dataDir: string, content: ServerFile): Promise<void> => {
  await ensurePrivateDir(dataDir);
  await writeFile(fileOf(dataDir), JSON.stringify(content), { mode: 0o600 });
};

export const removeServerFile = async (dataDir: string, pid: number): Promise<void> => {
  const current = await readServerFile(dataDir);
  if (current?.pid === pid) await rm(fileOf(dataDir), { force: true });
};

/** The running server, or undefined when none is (a stale file of a dead process is ignored). */
export const readServerFile = async (dataDir: string): Promise<ServerFile | undefined> => {
  let content: ServerFile;
  try {
    content = JSON.parse(await readFile(fileOf(dataDir), 'utf8')) as ServerFile;
  } catch {
    return undefined;
  }
  try {
    process.kill(content.pid, 0);
    return content;
  } catch {
    return undefined;
  }
};
