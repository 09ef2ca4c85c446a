import { readFile } from 'node:fs/promises';
import { ValidationError } from '@platform/core';
import { importDataFile, migrate, openDatabase } from '@platform/store';
import { loadConfig } from '../config.ts';
import type { DataDirLock } from '../data-dir-lock.ts';
import { takeOrFindOwner } from '../data-dir-owner.ts';
import { sendToImportSocket } from '../import-socket.ts';
import { localImportAudit } from '../local-import-audit.ts';
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
    // A bad file, as one that breaks a rule of the format: the command failed (exit 1), nothing was imported.
    throw new ValidationError(
      `${file} is not valid JSON: ${(error as Error).message}. Nothing was imported.`,
    );
  }
};

/**
 * `platform-server import FILE`: upsert a data file, all or nothing. On the embedded database, the process that
 * owns the data folder writes it: a running server (the file goes through its import socket), or, when none
 * runs, this command, which holds the folder's lock meanwhile so that no server opens the database beside it.
 */
export const importFile = async (file: string | undefined): Promise<void> => {
  if (!file) throw new UsageError('Name the data file: platform-server import FILE.');
  const config = loadConfig();
  const data = await readDataFile(file);
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    const owner = await takeOrFindOwner(config.dataDir, 'import');
    if (typeof owner === 'string') {
      await importThroughServer(owner, data, config.dataDir);
      return;
    }
    lock = owner;
  }
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config.databaseTimeouts,
    });
    try {
      await migrate(database);
      const summary = await importDataFile(database, data, { onProgress: progress, audit: localImportAudit });
      process.stdout.write(`Imported ${file}: ${JSON.stringify(summary)}\n`);
    } finally {
      await database.close();
    }
  } finally {
    await lock?.release();
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
