import { readFile } from 'node:fs/promises';
import { ValidationError } from '@platform/core';
import { importDataFile, migrate, openDatabase } from '@platform/store';
import { loadConfig } from '../config.ts';
import { sendToImportSocket } from '../import-socket.ts';
import { readServerFile } from '../server-file.ts';
import { UsageError } from './usage-error.ts';

const progress = (done: number, total: number) => {
  process.stderr.write(
    `\rImporting: ${done}/${total} rows (${Math.floor((done / Math.max(total, 1)) * 100)}%)`,
  );
  if (done >= total) process.stderr.write('\n');
};

const readDataFile = async (file: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}.`);
  }
};

/**
 * `platform-server import FILE`: upsert a data file, all or nothing. With a server running on the embedded
 * database, the file goes through that server (one process owns PGlite); otherwise straight to the database.
 */
export const importFile = async (file: string | undefined): Promise<void> => {
  if (!file) throw new UsageError('Name the data file: platform-server import FILE.');
  const config = loadConfig();
  const data = await readDataFile(file);
  const running = config.databaseUrl ? undefined : await readServerFile(config.dataDir);
  if (running) {
    await importThroughServer(running.url, data, config.dataDir);
    return;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database);
    const summary = await importDataFile(database, data, { onProgress: progress });
    process.stdout.write(`Imported ${file}: ${JSON.stringify(summary)}\n`);
  } finally {
    await database.close();
  }
};

const importThroughServer = async (url: string, data: unknown, dataDir: string): Promise<void> => {
  process.stderr.write(`A server is running at ${url} on this embedded database: importing through it.\n`);
  const answer = await sendToImportSocket(dataDir, JSON.stringify(data));
  const body = answer.body as { message?: string; errors?: Record<string, string[]> };
  if (answer.status !== 200)
    throw new ValidationError(body.message ?? `The server answered ${answer.status}.`, body.errors);
  process.stdout.write(`Imported: ${JSON.stringify(body)}\n`);
};
