import { and, asc, eq, exists, or, type SQL, sql } from 'drizzle-orm';
import { environmentRoles, environments, memberships, subscriptions } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';
import { environmentRoleCodes, subscriptionRoleCodes } from './roles.ts';

export type EnvironmentRow = typeof environments.$inferSelect;

/** An environment with the guid of its subscription and the subscription fields EnvironmentModel carries. */
export type EnvironmentWithSubscription = EnvironmentRow & {
  subscriptionGuid: string;
  isPlatformPricebook: boolean;
};

/** Sum of the six storage parts (CONTRACT.md §5 `usedStorage`). */
export const usedStorage = (row: EnvironmentRow): number =>
  row.storageAssets +
  row.storageDocuments +
  row.storageFonts +
  row.storageCache +
  row.storageBackup +
  row.storageOther;

/** Production, Sandbox, Development (CONTRACT.md §5), then name in code-point order, then id: the same on every backend. */
const listingOrder = [
  sql`case ${environments.type} when 'Production' then 0 when 'Sandbox' then 1 when 'Development' then 2 else 3 end`,
  sql`${environments.name} collate "C"`,
  asc(environments.id),
];

export const findEnvironmentByGuid = async (
  db: Db,
  guid: string,
): Promise<EnvironmentWithSubscription | undefined> => {
  const [row] = await db
    .select({
      environment: environments,
      subscriptionGuid: subscriptions.guid,
      isPlatformPricebook: subscriptions.isPlatformPricebook,
    })
    .from(environments)
    .innerJoin(subscriptions, eq(subscriptions.id, environments.subscriptionId))
    .where(eq(environments.guid, guid))
    .limit(1);
  return (
    row && {
      ...row.environment,
      subscriptionGuid: row.subscriptionGuid,
      isPlatformPricebook: row.isPlatformPricebook,
    }
  );
};

export type EnvironmentFilter = {
  /** Only this subscription's environments. */
  subscriptionId?: number | undefined;
  /** Only what this user may see (CONTRACT.md §3); undefined: everything (operators). */
  visibleTo?: string | undefined;
  /** Case-insensitive substring of `name` or `technicalName` (CONTRACT.md §5). */
  name?: string | undefined;
};

const visibleTo = (db: Db, userId: string): SQL | undefined =>
  or(
    exists(
      db
        .select({ one: sql`1` })
        .from(memberships)
        .where(
          and(
            eq(memberships.subscriptionId, environments.subscriptionId),
            eq(memberships.userId, userId),
            sql`${memberships.subscriptionRoles} && ${subscriptionRoleCodes()}`,
          ),
        ),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(environmentRoles)
        .where(
          and(
            eq(environmentRoles.environmentId, environments.id),
            eq(environmentRoles.userId, userId),
            sql`${environmentRoles.roles} && ${environmentRoleCodes()}`,
          ),
        ),
    ),
  );

const nameMatches = (name: string): SQL | undefined =>
  or(
    sql`strpos(lower(${environments.name}), lower(${name})) > 0`,
    sql`strpos(lower(coalesce(${environments.technicalName}, '')), lower(${name})) > 0`,
  );

/** Environments matching `filter`, ordered by type (Production, Sandbox, Development), then name. */
export const listEnvironments = (db: Db, filter: EnvironmentFilter = {}): Promise<EnvironmentRow[]> => {
  const conditions: (SQL | undefined)[] = [];
  if (filter.subscriptionId !== undefined)
    conditions.push(eq(environments.subscriptionId, filter.subscriptionId));
  if (filter.visibleTo !== undefined) conditions.push(visibleTo(db, filter.visibleTo));
  if (filter.name !== undefined && filter.name !== '') conditions.push(nameMatches(filter.name));
  return db
    .select()
    .from(environments)
    .where(and(...conditions))
    .orderBy(...listingOrder);
};

/** The environments of one subscription, in listing order. */
export const listEnvironmentsOfSubscription = (db: Db, subscriptionId: number): Promise<EnvironmentRow[]> =>
  listEnvironments(db, { subscriptionId });
