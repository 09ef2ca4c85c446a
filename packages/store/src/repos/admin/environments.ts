import { and, asc, eq, exists, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { environmentRoles, environments, memberships, subscriptions } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';
import { type MembershipRecord, membershipColumns, toMembershipRecord } from './memberships.ts';
import { prepared } from './prepared.ts';
import { environmentRoleCodes, subscriptionRoleCodes } from './roles.ts';

export type EnvironmentRow = typeof environments.$inferSelect;

/** An environment with the guid of its subscription and the subscription fields EnvironmentModel carries. */
export type EnvironmentWithSubscription = EnvironmentRow & {
  subscriptionGuid: string;
  isPlatformPricebook: boolean;
};

/** Sum of the six storage parts (docs/admin-api.md `usedStorage`). */
export const usedStorage = (row: EnvironmentRow): number =>
  row.storageAssets +
  row.storageDocuments +
  row.storageFonts +
  row.storageCache +
  row.storageBackup +
  row.storageOther;

/** Production, Sandbox, Development (docs/admin-api.md), then name in code-point order, then id: the same on every backend. */
export const listingOrder = [
  sql`case ${environments.type} when 'Production' then 0 when 'Sandbox' then 1 when 'Development' then 2 else 3 end`,
  sql`${environments.name} collate "C"`,
  asc(environments.id),
];

const withSubscription = {
  environment: environments,
  subscriptionGuid: subscriptions.guid,
  isPlatformPricebook: subscriptions.isPlatformPricebook,
};

const flatten = (row: {
  environment: EnvironmentRow;
  subscriptionGuid: string;
  isPlatformPricebook: boolean;
}): EnvironmentWithSubscription => ({
  ...row.environment,
  subscriptionGuid: row.subscriptionGuid,
  isPlatformPricebook: row.isPlatformPricebook,
});

export const findEnvironmentByGuid = async (
  db: Db,
  guid: string,
): Promise<EnvironmentWithSubscription | undefined> => {
  const statement = prepared(db, 'admin_environment_by_guid', () =>
    db
      .select(withSubscription)
      .from(environments)
      .innerJoin(subscriptions, eq(subscriptions.id, environments.subscriptionId))
      .where(eq(environments.guid, sql.placeholder('guid')))
      .limit(1)
      .prepare('admin_environment_by_guid'),
  );
  const [row] = await statement.execute({ guid });
  return row && flatten(row);
};

/**
 * An environment by guid together with the membership of `userId` in its subscription, in one round trip (as
 * `findEnvironmentByGuid` and `findMembership` would answer them): every request on an environment needs both.
 */
export const findEnvironmentWithMembership = async (
  db: Db,
  guid: string,
  userId: string,
): Promise<
  { environment: EnvironmentWithSubscription; membership: MembershipRecord | undefined } | undefined
> => {
  const statement = prepared(db, 'admin_environment_with_membership', () =>
    db
      .select({ ...withSubscription, ...membershipColumns(sql`environments.subscription_id`) })
      .from(environments)
      .innerJoin(subscriptions, eq(subscriptions.id, environments.subscriptionId))
      .where(eq(environments.guid, sql.placeholder('guid')))
      .limit(1)
      .prepare('admin_environment_with_membership'),
  );
  const [row] = await statement.execute({ guid, userId });
  if (!row) return undefined;
  return { environment: flatten(row), membership: toMembershipRecord(row.member, row.environmentRoles) };
};

export type EnvironmentFilter = {
  /** Only this subscription's environments. */
  subscriptionId?: number | undefined;
  /** Only what this user may see (docs/authentication.md); undefined: everything (operators). */
  visibleTo?: string | undefined;
  /** Case-insensitive substring of `name` or `technicalName` (docs/admin-api.md). */
  name?: string | undefined;
};

const visibleTo = (db: Db, userId: Placeholder): SQL | undefined =>
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

const nameMatches = (name: Placeholder): SQL | undefined =>
  or(
    sql`strpos(lower(${environments.name}), lower(${name})) > 0`,
    sql`strpos(lower(coalesce(${environments.technicalName}, '')), lower(${name})) > 0`,
  );

/**
 * Environments matching `filter`, ordered by type (Production, Sandbox, Development), then name. One prepared
 * statement per combination of the filter's parts, with the values as placeholders.
 */
export const listEnvironments = (db: Db, filter: EnvironmentFilter = {}): Promise<EnvironmentRow[]> => {
  const bySubscription = filter.subscriptionId !== undefined;
  const byVisibility = filter.visibleTo !== undefined;
  const byName = filter.name !== undefined && filter.name !== '';
  const name = `admin_environments_${Number(bySubscription)}${Number(byVisibility)}${Number(byName)}`;
  const statement = prepared(db, name, () =>
    db
      .select()
      .from(environments)
      .where(
        and(
          bySubscription ? eq(environments.subscriptionId, sql.placeholder('subscriptionId')) : undefined,
          byVisibility ? visibleTo(db, sql.placeholder('userId')) : undefined,
          byName ? nameMatches(sql.placeholder('name')) : undefined,
        ),
      )
      .orderBy(...listingOrder)
      .prepare(name),
  );
  return statement.execute({
    subscriptionId: filter.subscriptionId,
    userId: filter.visibleTo,
    name: filter.name,
  });
};

/** The environments of one subscription, in listing order. */
export const listEnvironmentsOfSubscription = (db: Db, subscriptionId: number): Promise<EnvironmentRow[]> =>
  listEnvironments(db, { subscriptionId });
