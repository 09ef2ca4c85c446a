import { writeFile } from 'node:fs/promises';
import { exportDataFile, migrate, openDatabase } from '@platform/store';
import { loadConfig } from '../config.ts';
import { takeOrFindOwner } from '../data-dir-owner.ts';
import { readExportSocket } from '../import-socket.ts';

/** What the running server on this embedded database holds (one process owns PGlite, as for import). */
const exportThroughServer = async (url: string, dataDir: string): Promise<unknown> => {
  process.stderr.write(`A server is running at ${url} on this embedded database: exporting through it.\n`);
  const answer = await readExportSocket(dataDir);
  if (answer.status !== 200) {
    const message = (answer.body as { message?: string }).message;
    throw new Error(message ?? `The server answered ${answer.status}.`);
  }
  return answer.body;
};

const exportDirectly = async (databaseUrl: string | undefined, dataDir: string): Promise<unknown> => {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await migrate(database);
    return await exportDataFile(database.db);
  } finally {
    await database.close();
  }
};

/**
 * `platform-server export [FILE]`: what the database holds, as a data file (docs/data-file.md) that
 * `platform-server import` takes back; to FILE, or to stdout without one.
 */
export const exportFile = async (file: string | undefined): Promise<void> => {
  const config = loadConfig();
  // On the embedded database the folder's owner reads it: a running server, or this command under the lock.
  const owner = config.databaseUrl ? undefined : await takeOrFindOwner(config.dataDir, 'export');
  let data: unknown;
  if (typeof owner === 'string') data = await exportThroughServer(owner, config.dataDir);
  else {
    try {
      data = await exportDirectly(config.databaseUrl, config.dataDir);
    } finally {
      await owner?.release();
    }
  }
  const text = `${JSON.stringify(data, null, 2)}\n`;
  if (file === undefined) {
    process.stdout.write(text);
    return;
  }
  // Users' names and e-mail addresses: readable by the owner only, as the data folder is.
  await writeFile(file, text, { mode: 0o600 });
  process.stderr.write(`Exported to ${file}.\n`);
};
