import { sql } from 'drizzle-orm';
import type { Db } from '../../types.ts';

/** Resolves when the database answers a trivial query; rejects with the driver's error otherwise. */
export const checkDatabase = async (db: Db): Promise<void> => {
  await db.execute(sql`select 1`);
};
