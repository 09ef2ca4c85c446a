import {
  migrate as applyMigrations,
  createSecretBox,
  loadOrCreateSecretsKey,
  openDatabase,
  sealClearAuthObjects,
} from '@platform/store';
import { loadConfig } from '../config.ts';
import { readServerFile } from '../server-file.ts';
import { UsageError } from './usage-error.ts';

/** `platform-server migrate`: apply migrations (and seal what older releases stored in clear) and exit. */
export const migrate = async (): Promise<void> => {
  const config = loadConfig();
  if (!config.databaseUrl && (await readServerFile(config.dataDir))) {
    throw new UsageError('The server is running on this embedded database and has migrated it already.');
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await applyMigrations(database);
    // Sealing needs the secrets key, which the SQL migrations cannot see: it runs here and at every start.
    const secrets = createSecretBox(config.secretsKey ?? (await loadOrCreateSecretsKey(config.dataDir)));
    await sealClearAuthObjects(database.db, secrets);
    process.stdout.write('Migrations applied.\n');
  } finally {
    await database.close();
  }
};
