import { canSeeEnvironment, NotFoundError } from '@platform/core';
import { type Database, findMembership, schema } from '@platform/store';
import { eq, sql } from 'drizzle-orm';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `{environment}` is a technical name (case-insensitive) or a guid (docs/configuration.md); an environment the
 * caller cannot see is reported exactly like one that does not exist (docs/authentication.md).
 */
export const resolveVisibleEnvironment = async (
  database: Database,
  segment: string,
  caller: { userId: string; roles: ReadonlySet<string> },
): Promise<number> => {
  const { environments } = schema;
  const where = uuidPattern.test(segment)
    ? eq(environments.guid, segment.toLowerCase())
    : eq(sql`lower(${environments.technicalName})`, segment.toLowerCase());
  const [env] = await database.db
    .select({ id: environments.id, guid: environments.guid, subscriptionId: environments.subscriptionId })
    .from(environments)
    .where(where)
    .limit(1);
  const notFound = new NotFoundError(`Environment ${segment} was not found.`);
  if (!env) throw notFound;
  const membership = (await findMembership(database.db, env.subscriptionId, caller.userId)) ?? null;
  if (!canSeeEnvironment({ membership, isOperator: caller.roles.has('platform:admin') }, env.guid))
    throw notFound;
  return env.id;
};
