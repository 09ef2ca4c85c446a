import { eq, sql } from 'drizzle-orm';
import { environments } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';

const guidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The environment an environment-API path names (docs/configuration.md): its guid, or its technical name without regard
 * to case. A guid-shaped reference is looked up as a guid only, so one reference never names two environments.
 */
export const findEnvironmentByReference = async (
  db: Db,
  reference: string,
): Promise<typeof environments.$inferSelect | undefined> => {
  const where = guidPattern.test(reference)
    ? eq(environments.guid, reference.toLowerCase())
    : sql`lower(${environments.technicalName}) = lower(${reference})`;
  const [row] = await db.select().from(environments).where(where).limit(1);
  return row;
};
