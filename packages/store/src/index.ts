export * from './audit/index.ts';
export { DatabaseUnavailableError, isDatabaseUnavailable } from './database-unavailable-error.ts';
export { DEMO_OWNER_ID, demoDataFile } from './demo/demo-data-file.ts';
export { repointDemoConnectors } from './demo/repoint-demo-connectors.ts';
export { seedDemoData } from './demo/seed-demo-data.ts';
export { exportDataFile } from './export/export-data-file.ts';
export { type ImportOptions, type ImportSummary, importDataFile } from './import/import-data-file.ts';
export { type LoggableError, loggableError } from './loggable-error.ts';
export { migrate, migrationsFolder } from './migrate.ts';
export { type OpenDatabaseOptions, openDatabase } from './open-database.ts';
export { DEFAULT_POSTGRES_TIMEOUTS, type PostgresTimeouts } from './postgres-availability.ts';
export { ensurePrivateDir } from './private-files.ts';
export { queryRows } from './query-rows.ts';
export { ingestRenderEvents, type RenderEventInput } from './renders/ingest-render-events.ts';
export * from './repos/admin/index.ts';
export * from './repos/environment/index.ts';
export * as schema from './schema/index.ts';
export { countSealedValues, type SealedCounts } from './sealed/count-sealed-values.ts';
export { recordRotation } from './sealed/record-rotation.ts';
export {
  type ResealOptions,
  type ResealProgress,
  type ResealSummary,
  resealValues,
} from './sealed/reseal-values.ts';
export { DEV_ISSUER_KEY_META, SEALED_COLUMNS, type SealedColumn } from './sealed/sealed-columns.ts';
export { findUnopenedSecrets, type UnopenedSecrets } from './sealed/unopened-secrets.ts';
export { createSecretBox, SecretOpenError, sealedUnderPrefix } from './secret-box.ts';
export { loadOrCreateSecretsKey } from './secrets-key.ts';
export { DEFAULT_KEY_ID, keyFingerprint, parseSecretsKeys, type SecretsKey } from './secrets-keys.ts';
export { STANDARD_SUBJECT_TYPES } from './subject-types.ts';
export type { ChangeWatch, Database, Db, SecretBox } from './types.ts';
