import { readFile } from 'node:fs/promises';
import { createDevIssuer } from '@platform/api';
import { ValidationError } from '@platform/core';
import { importDataFile, migrate, openDatabase } from '@platform/store';
import { loadConfig } from '../config.ts';
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
    await importThroughServer(running.url, data, config);
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

const importThroughServer = async (
  url: string,
  data: unknown,
  config: ReturnType<typeof loadConfig>,
): Promise<void> => {
  if (config.authIssuer || config.production) {
    throw new UsageError('A server is running on the embedded database: stop it first, then import.');
  }
  const issuer = await createDevIssuer({
    dataDir: config.dataDir,
    issuer: url,
    audience: config.authAudience,
  });
  const token = await issuer.mint({
    sub: 'platform-server-import',
    roles: ['platform:admin', 'platform:write'],
    ttlSeconds: 600,
  });
  process.stderr.write(`A server is running at ${url}: importing through it.\n`);
  const response = await fetch(`${url}/api/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });
  const body = (await response.json().catch(() => ({}))) as {
    detail?: string;
    errors?: Record<string, string[]>;
  };
  if (!response.ok) {
    throw new ValidationError(body.detail ?? `The server answered ${response.status}.`, body.errors);
  }
  process.stdout.write(`Imported: ${JSON.stringify(body)}\n`);
};
