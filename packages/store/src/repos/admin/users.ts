import { and, eq, exists, or, sql } from 'drizzle-orm';
import { environmentRoles, environments, memberships, users } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';

export type UserRow = typeof users.$inferSelect;

/** A user of a subscription; `membershipType` is null for users holding only environment roles. */
export type SubscriptionUserRow = UserRow & { membershipType: string | null };

const holdsEnvironmentRole = (db: Db, subscriptionId: number) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(environmentRoles)
      .innerJoin(environments, eq(environments.id, environmentRoles.environmentId))
      .where(and(eq(environmentRoles.userId, users.id), eq(environments.subscriptionId, subscriptionId))),
  );

/**
 * Users of a subscription: those with a membership row, and those holding a role on one of its environments.
 * Ordered by id (code-point order, the same on every backend).
 */
export const listSubscriptionUsers = async (
  db: Db,
  subscriptionId: number,
): Promise<SubscriptionUserRow[]> => {
  const rows = await db
    .select({ user: users, membershipType: memberships.membershipType })
    .from(users)
    .leftJoin(
      memberships,
      and(eq(memberships.userId, users.id), eq(memberships.subscriptionId, subscriptionId)),
    )
    .where(or(sql`${memberships.userId} is not null`, holdsEnvironmentRole(db, subscriptionId)))
    .orderBy(sql`${users.id} collate "C"`);
  return rows.map((row) => ({ ...row.user, membershipType: row.membershipType }));
};

export const findUser = async (db: Db, userId: string): Promise<UserRow | undefined> => {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
};
