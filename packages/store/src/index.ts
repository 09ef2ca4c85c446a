export { migrate, migrationsFolder } from './migrate.ts';
export { type OpenDatabaseOptions, openDatabase } from './open-database.ts';
export { queryRows } from './query-rows.ts';
export * from './repos/admin/index.ts';
export * from './repos/environment/index.ts';
export * as schema from './schema/index.ts';
export { createSecretBox, SecretOpenError, secretKeyId } from './secret-box.ts';
export { loadOrCreateSecretsKey } from './secrets-key.ts';
export type { Database, Db, SecretBox } from './types.ts';
