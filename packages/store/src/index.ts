export * as schema from './schema/index.ts';
export type { Database, Db, SecretBox } from './types.ts';
