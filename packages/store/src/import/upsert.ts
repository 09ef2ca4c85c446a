import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** `set` of an upsert that takes every column from the incoming row except the key columns. */
export const takeIncoming = (table: PgTable, keys: readonly string[]): Record<string, SQL> =>
  Object.fromEntries(
    Object.entries(getTableColumns(table))
      .filter(([name]) => !keys.includes(name))
      .map(([name, column]) => [name, sql.raw(`excluded."${column.name}"`)]),
  );

export const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};
