import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './types.ts';

/**
 * Runs `fn` in a transaction: the caller's own when `db` already is one (a change and its audit entry commit
 * together, docs/audit.md), else a new one. Joining instead of nesting spares a savepoint's two round trips per write.
 */
export const withinTransaction = <T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> =>
  db instanceof PgTransaction ? fn(db as unknown as Db) : db.transaction((tx) => fn(tx as unknown as Db));
