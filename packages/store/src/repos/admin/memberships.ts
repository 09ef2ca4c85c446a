import { eq, type SQL, sql } from 'drizzle-orm';
import { subscriptions } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';
import { prepared, preparedRows } from './prepared.ts';
import type { SubscriptionRow } from './subscriptions.ts';

/** A user's standing in one subscription (docs/authentication.md). */
export type MembershipRecord = {
  subscriptionRoles: string[];
  /** Environment guid → role codes, for the environments of this subscription the user holds roles on. */
  environmentRoles: Record<string, string[]>;
  /** `Invitation` or `Federated`; null when the user holds only environment roles and no membership row. */
  membershipType: string | null;
};

type MembershipJson = { roles: string[]; type: string | null } | null;
type EnvironmentRolesJson = [string, string[]][] | null;

/**
 * The two parts of a membership as columns of a statement over `subscriptionId` (an SQL expression naming the
 * subscription's id) and the placeholder `userId`: written out with aliases, since inside a select list drizzle
 * leaves column names unqualified.
 */
export const membershipColumns = (subscriptionId: SQL) => ({
  member: sql<MembershipJson>`(select json_build_object('roles', m.subscription_roles, 'type', m.membership_type)
    from memberships m
    where m.subscription_id = ${subscriptionId} and m.user_id = ${sql.placeholder('userId')})`,
  environmentRoles: sql<EnvironmentRolesJson>`(select json_agg(json_build_array(e.guid, r.roles) order by e.id)
    from environment_roles r
    join environments e on e.id = r.environment_id
    where e.subscription_id = ${subscriptionId} and r.user_id = ${sql.placeholder('userId')})`,
});

/** The record the two membership columns describe; undefined when the user has neither part there. */
export const toMembershipRecord = (
  member: unknown,
  environmentRoles: unknown,
): MembershipRecord | undefined => {
  const row = parseJson<MembershipJson>(member);
  const envRoles: Record<string, string[]> = {};
  for (const [environmentGuid, roles] of parseJson<EnvironmentRolesJson>(environmentRoles) ?? []) {
    if (roles.length > 0) envRoles[environmentGuid] = [...roles];
  }
  if (!row && Object.keys(envRoles).length === 0) return undefined;
  return {
    subscriptionRoles: row ? [...row.roles] : [],
    environmentRoles: envRoles,
    membershipType: row?.type ?? null,
  };
};

/**
 * The membership of `userId` in subscription `subscriptionId`, with its environment roles; undefined when
 * the user has neither a membership row nor any environment role there.
 */
export const findMembership = async (
  db: Db,
  subscriptionId: number,
  userId: string,
): Promise<MembershipRecord | undefined> => {
  const statement = preparedRows<{ member: unknown; environmentRoles: unknown }>(
    db,
    'admin_membership',
    () => {
      const columns = membershipColumns(sql`${sql.placeholder('subscriptionId')}::int`);
      return sql`select ${columns.member} as member, ${columns.environmentRoles} as "environmentRoles"`;
    },
  );
  const [row] = await statement({ subscriptionId, userId });
  return toMembershipRecord(row?.member, row?.environmentRoles);
};

/**
 * Distinct users holding `TemplateDesigner` on any environment of the subscription
 * (docs/admin-api.md `templateDesignerSeatsUsed`).
 */
export const templateDesignersOf = (subscriptionId: SQL) =>
  sql<number>`(select count(distinct r.user_id)::int
    from environment_roles r
    join environments e on e.id = r.environment_id
    where e.subscription_id = ${subscriptionId} and 'TemplateDesigner' = any(r.roles))`;

export const countTemplateDesigners = async (db: Db, subscriptionId: number): Promise<number> => {
  const statement = preparedRows<{ count: number }>(
    db,
    'admin_template_designers',
    () => sql`select ${templateDesignersOf(sql`${sql.placeholder('subscriptionId')}::int`)} as count`,
  );
  const [row] = await statement({ subscriptionId });
  return Number(row?.count ?? 0);
};

/**
 * A subscription by guid together with the membership of `userId` in it, in one round trip: every request on a
 * subscription needs both before anything else, so they are read by one statement instead of three.
 * `membership` is undefined under the same rule as `findMembership`.
 */
export const findSubscriptionWithMembership = async (
  db: Db,
  guid: string,
  userId: string,
): Promise<{ subscription: SubscriptionRow; membership: MembershipRecord | undefined } | undefined> => {
  const statement = prepared(db, 'admin_subscription_with_membership', () =>
    db
      .select({ subscription: subscriptions, ...membershipColumns(sql`subscriptions.id`) })
      .from(subscriptions)
      .where(eq(subscriptions.guid, sql.placeholder('guid')))
      .limit(1)
      .prepare('admin_subscription_with_membership'),
  );
  const [row] = await statement.execute({ guid, userId });
  if (!row) return undefined;
  return { subscription: row.subscription, membership: toMembershipRecord(row.member, row.environmentRoles) };
};

/** json values arrive parsed from node-postgres and PGlite alike; a driver handing text is parsed here. */
const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
