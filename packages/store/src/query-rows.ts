import type { SQL } from 'drizzle-orm';
import type { Db } from './types.ts';

/**
 * Runs raw SQL and returns its rows. Both drivers answer `{ rows }`, but the shared `Db` type cannot say so;
 * this is the one place that knows.
 */
export const queryRows = async <T extends Record<string, unknown>>(
  db: Pick<Db, 'execute'>,
  query: SQL,
): Promise<T[]> => {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
};
