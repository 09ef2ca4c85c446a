import { and, asc, eq, sql } from 'drizzle-orm';
import { environmentRoles, environments, memberships } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';

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
