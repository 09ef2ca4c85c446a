import { and, asc, eq, sql } from 'drizzle-orm';
import { environmentRoles, environments, memberships, subscriptions } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';
import type { SubscriptionRow } from './subscriptions.ts';

/** A user's standing in one subscription (CONTRACT.md §3). */
export type MembershipRecord = {
  subscriptionRoles: string[];
  /** Environment guid → role codes, for the environments of this subscription the user holds roles on. */
  environmentRoles: Record<string, string[]>;
  /** `Invitation` or `Federated`; null when the user holds only environment roles and no membership row. */
  membershipType: string | null;
};

/** Environment roles of `userId` on the environments of subscription `subscriptionId`, keyed by guid. */
const environmentRolesOf = async (
  db: Db,
  subscriptionId: number,
  userId: string,
): Promise<Record<string, string[]>> => {
  const rows = await db
    .select({ guid: environments.guid, roles: environmentRoles.roles })
    .from(environmentRoles)
    .innerJoin(environments, eq(environments.id, environmentRoles.environmentId))
    .where(and(eq(environments.subscriptionId, subscriptionId), eq(environmentRoles.userId, userId)))
    .orderBy(asc(environments.id));
  const out: Record<string, string[]> = {};
  for (const row of rows) if (row.roles.length > 0) out[row.guid] = [...row.roles];
  return out;
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
  const [row] = await db
    .select({ subscriptionRoles: memberships.subscriptionRoles, membershipType: memberships.membershipType })
    .from(memberships)
    .where(and(eq(memberships.subscriptionId, subscriptionId), eq(memberships.userId, userId)))
    .limit(1);
  const envRoles = await environmentRolesOf(db, subscriptionId, userId);
  if (!row && Object.keys(envRoles).length === 0) return undefined;
  return {
    subscriptionRoles: row ? [...row.subscriptionRoles] : [],
    environmentRoles: envRoles,
    membershipType: row?.membershipType ?? null,
  };
};

/**
 * Distinct users holding `TemplateDesigner` on any environment of the subscription
 * (CONTRACT.md §5 `templateDesignerSeatsUsed`).
 */
export const countTemplateDesigners = async (db: Db, subscriptionId: number): Promise<number> => {
  const [row] = await db
    .select({ count: sql<number>`count(distinct ${environmentRoles.userId})`.mapWith(Number) })
    .from(environmentRoles)
    .innerJoin(environments, eq(environments.id, environmentRoles.environmentId))
    .where(
      and(
        eq(environments.subscriptionId, subscriptionId),
        sql`'TemplateDesigner' = any(${environmentRoles.roles})`,
      ),
    );
  return row?.count ?? 0;
};

type MembershipJson = { roles: string[]; type: string | null } | null;

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
  const [row] = await db
    .select({
      subscription: subscriptions,
      // Written out with aliases: inside a select list drizzle leaves column names unqualified.
      member: sql<MembershipJson>`(select json_build_object('roles', m.subscription_roles, 'type', m.membership_type)
        from memberships m
        where m.subscription_id = subscriptions.id and m.user_id = ${userId})`,
      environmentRoles: sql<
        [string, string[]][] | null
      >`(select json_agg(json_build_array(e.guid, r.roles) order by e.id)
        from environment_roles r
        join environments e on e.id = r.environment_id
        where e.subscription_id = subscriptions.id and r.user_id = ${userId})`,
    })
    .from(subscriptions)
    .where(eq(subscriptions.guid, guid))
    .limit(1);
  if (!row) return undefined;
  const member = parseJson<MembershipJson>(row.member);
  const envRoles: Record<string, string[]> = {};
  for (const [environmentGuid, roles] of parseJson<[string, string[]][] | null>(row.environmentRoles) ?? []) {
    if (roles.length > 0) envRoles[environmentGuid] = [...roles];
  }
  if (!member && Object.keys(envRoles).length === 0)
    return { subscription: row.subscription, membership: undefined };
  return {
    subscription: row.subscription,
    membership: {
      subscriptionRoles: member ? [...member.roles] : [],
      environmentRoles: envRoles,
      membershipType: member?.type ?? null,
    },
  };
};

/** json values arrive parsed from node-postgres and PGlite alike; a driver handing text is parsed here. */
const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
