import { and, asc, eq, exists, or, sql } from 'drizzle-orm';
import { environmentRoles, environments, memberships, subscriptions } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';
import { prepared } from './prepared.ts';
import { environmentRoleCodes, subscriptionRoleCodes } from './roles.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Guids are stored lower case by PostgreSQL's uuid type; callers pass a syntactically valid guid. */
export const findSubscriptionByGuid = async (db: Db, guid: string): Promise<SubscriptionRow | undefined> => {
  const statement = prepared(db, 'admin_subscription_by_guid', () =>
    db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.guid, sql.placeholder('guid')))
      .limit(1)
      .prepare('admin_subscription_by_guid'),
  );
  const [row] = await statement.execute({ guid });
  return row;
};

export const findSubscriptionById = async (db: Db, id: number): Promise<SubscriptionRow | undefined> => {
  const statement = prepared(db, 'admin_subscription_by_id', () =>
    db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, sql.placeholder('id')))
      .limit(1)
      .prepare('admin_subscription_by_id'),
  );
  const [row] = await statement.execute({ id });
  return row;
};

/** Every subscription, ordered by id (operators). */
export const listAllSubscriptions = (db: Db): Promise<SubscriptionRow[]> =>
  prepared(db, 'admin_subscriptions_all', () =>
    db.select().from(subscriptions).orderBy(asc(subscriptions.id)).prepare('admin_subscriptions_all'),
  ).execute();

/**
 * Subscriptions `userId` may see (docs/authentication.md): any subscription role in it, or any environment role on one
 * of its environments. Ordered by id.
 */
export const listSubscriptionsVisibleTo = (db: Db, userId: string): Promise<SubscriptionRow[]> =>
  prepared(db, 'admin_subscriptions_visible', () => visibleSubscriptions(db)).execute({ userId });

const visibleSubscriptions = (db: Db) =>
  db
    .select()
    .from(subscriptions)
    .where(
      or(
        exists(
          db
            .select({ one: sql`1` })
            .from(memberships)
            .where(
              and(
                eq(memberships.subscriptionId, subscriptions.id),
                eq(memberships.userId, sql.placeholder('userId')),
                sql`${memberships.subscriptionRoles} && ${subscriptionRoleCodes()}`,
              ),
            ),
        ),
        exists(
          db
            .select({ one: sql`1` })
            .from(environmentRoles)
            .innerJoin(environments, eq(environments.id, environmentRoles.environmentId))
            .where(
              and(
                eq(environments.subscriptionId, subscriptions.id),
                eq(environmentRoles.userId, sql.placeholder('userId')),
                sql`${environmentRoles.roles} && ${environmentRoleCodes()}`,
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .prepare('admin_subscriptions_visible');
