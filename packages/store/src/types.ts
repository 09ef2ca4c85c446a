import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

/** The drizzle database over either backend: PGlite (embedded) and node-postgres share this type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` while holding a PostgreSQL advisory lock named by `key` (on PGlite: an in-process mutex). */
  withAdvisoryLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Resolves while the database can answer, else rejects with the driver's error: PostgreSQL answers `select 1`;
   * the embedded PGlite runs in this process and answers as long as it is open, so the check does not queue
   * behind a running import's transaction on its one connection.
   */
  checkAlive(): Promise<void>;
  /**
   * Calls `onChange` after every committed write to the tables behind the administration API's reads (the
   * triggers of migration 0003), from this process or any other.
   */
  watchChanges(onChange: () => void): Promise<ChangeWatch>;
  close(): Promise<void>;
};

export type ChangeWatch = {
  /**
   * False while a change could go unseen: the listening connection is down and being re-established. Each
   * transition also calls `onChange`, since what changed meanwhile is unknown.
   */
  readonly live: boolean;
  stop(): Promise<void>;
};

/** AES-256-GCM envelope for secrets at rest; the key id travels inside the sealed string so keys can rotate. */
export type SecretBox = {
  seal(plaintext: string): string;
  open(sealed: string): string;
};
