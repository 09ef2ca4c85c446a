import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../types.ts';

/**
 * Prepared statements of the hot read paths. Building a query with drizzle costs about a millisecond here, more
 * than PostgreSQL takes to answer it, so each statement is built once per database and then only executed with
 * its `sql.placeholder` values; on PostgreSQL the name also lets each connection parse and plan it once.
 * Statements are held per `Db` (tests and tools open several databases in one process) and dropped with it.
 */
const perDb = new WeakMap<Db, Map<string, unknown>>();

/** The statement named `name` on `db`, built by `build` on first use; `name` must identify its SQL text. */
export const prepared = <T>(db: Db, name: string, build: () => T): T => {
  let statements = perDb.get(db);
  if (!statements) {
    statements = new Map();
    perDb.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build();
    statements.set(name, statement);
  }
  return statement;
};

/** Placeholder values by name. */
export type Values = Record<string, unknown>;

const dialect = new PgDialect();

/**
 * A raw SQL statement with placeholders, prepared under `name`, returning its rows as both drivers hand them
 * (what `db.execute` would, without rebuilding the SQL on every call).
 */
export const preparedRows = <T extends Record<string, unknown>>(
  db: Db,
  name: string,
  build: () => SQL,
): ((values: Values) => Promise<T[]>) =>
  prepared(db, name, () => {
    const statement = db._.session.prepareQuery(dialect.sqlToQuery(build()), undefined, name, false);
    return async (values: Values) => ((await statement.execute(values)) as { rows: T[] }).rows;
  });
