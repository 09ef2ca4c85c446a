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
   * False while the database does not answer (PostgreSQL frozen, stopped or out of reach); queries then fail at
   * once with DatabaseUnavailableError. Known from a probe, so reading it costs nothing (the readiness route).
   */
  available(): boolean;
  /**
   * Calls `onChange` after every committed write to the tables behind the administration API's reads, the
   * environment API's content and the connectors' configuration (the triggers of migrations 0003 and 0006), from
   * this process or any other.
   */
  watchChanges(onChange: () => void): Promise<ChangeWatch>;
  /**
   * Calls `onMessage` with the payload of every notification on `channel` (a plain identifier), from this process
   * or any other; without a payload when the listening connection was lost or is back (anything may have been missed).
   */
  listen(channel: string, onMessage: (payload?: string) => void): Promise<ChangeWatch>;
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
  /** The id of the key that seals (SECRETS_KEY's first). */
  readonly sealingKeyId: string;
  /** Every configured key id, the sealing one first. */
  readonly keyIds: readonly string[];
  /** The key id a sealed value's envelope parts (`version`, the id it names) stand for, configured or not. */
  keyIdOf(version: string, envelopeId: string): string;
  seal(plaintext: string): string;
  open(sealed: string): string;
};
