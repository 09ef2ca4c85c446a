import {
  migrate as applyMigrations,
  createSecretBox,
  loadOrCreateSecretsKey,
  openDatabase,
  sealClearAuthObjects,
} from '@platform/store';
import { loadConfig } from '../config.ts';
import { acquireDataDirLock } from '../data-dir-lock.ts';

/** `platform-server migrate`: apply migrations (and seal what older releases stored in clear) and exit. */
export const migrate = async (): Promise<void> => {
  const config = loadConfig();
  // A server that holds the embedded folder has migrated it at its start: the lock refuses, naming it.
  const lock = config.databaseUrl
    ? undefined
    : await acquireDataDirLock(config.dataDir, 'migrate', (line) => process.stderr.write(`${line}\n`));
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config.databaseTimeouts,
    });
    try {
      await applyMigrations(database);
      // Sealing needs the secrets key, which the SQL migrations cannot see: it runs here and at every start.
      const secrets = createSecretBox(config.secretsKey ?? (await loadOrCreateSecretsKey(config.dataDir)));
      await sealClearAuthObjects(database.db, secrets);
      process.stdout.write('Migrations applied.\n');
    } finally {
      await database.close();
    }
  } finally {
    await lock?.release();
  }
};
