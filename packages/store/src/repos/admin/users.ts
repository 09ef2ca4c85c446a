import { and, eq, exists, ne, or, sql } from 'drizzle-orm';
import { environmentRoles, environments, memberships, subscriptions, users } from '../../schema/admin.ts';
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

/** A user's status (`Active`, `Pending`, `Disabled`); undefined for a subject the database does not list. */
export const findUserStatus = async (db: Db, userId: string): Promise<string | undefined> => {
  const [row] = await db.select({ status: users.status }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.status;
};

/** A user with the subscription roles they hold, per subscription display name (the sign-in page's list). */
export type UserWithRoles = {
  id: string;
  email: string;
  name: string | null;
  subscriptionRoles: { subscription: string; roles: string[] }[];
  environmentRoleCount: number;
};

/**
 * Every user but the disabled ones (they may not sign in), ordered by id, with their memberships; for the development
 * issuer's sign-in page.
 */
export const listUsersWithRoles = async (db: Db): Promise<UserWithRoles[]> => {
  const [rows, memberRows, environmentRows] = await Promise.all([
    db.select().from(users).where(ne(users.status, 'Disabled')).orderBy(sql`${users.id} collate "C"`),
    db
      .select({
        userId: memberships.userId,
        subscription: subscriptions.displayName,
        roles: memberships.subscriptionRoles,
      })
      .from(memberships)
      .innerJoin(subscriptions, eq(subscriptions.id, memberships.subscriptionId))
      .orderBy(subscriptions.id),
    db
      .select({ userId: environmentRoles.userId, count: sql<number>`count(*)::int` })
      .from(environmentRoles)
      .groupBy(environmentRoles.userId),
  ]);
  const environmentCounts = new Map(environmentRows.map((row) => [row.userId, Number(row.count)]));
  return rows.map((user) => ({
    id: user.id,
    email: user.email,
    name: [user.firstName, user.lastName].filter(Boolean).join(' ') || null,
    subscriptionRoles: memberRows
      .filter((row) => row.userId === user.id && row.roles.length > 0)
      .map((row) => ({ subscription: row.subscription, roles: row.roles })),
    environmentRoleCount: environmentCounts.get(user.id) ?? 0,
  }));
};
