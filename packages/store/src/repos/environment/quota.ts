import { count, eq, inArray, sql } from 'drizzle-orm';
import { connectors, environments, media, oauthLoginStates, tags, templates } from '../../schema/index.ts';
import type { Db } from '../../types.ts';
import { withinTransaction } from '../../within-transaction.ts';

/** What a quota counts: rows of one environment, or templates of every environment of a subscription. */
export type QuotaScope =
  | { kind: 'tags' | 'connectors' | 'media'; environmentId: number }
  | { kind: 'templates'; subscriptionId: number };

const counted = { tags, connectors, media } as const;

const countIn = async (db: Db, scope: QuotaScope): Promise<number> => {
  if (scope.kind === 'templates') {
    const [row] = await db
      .select({ n: count() })
      .from(templates)
      .where(
        inArray(
          templates.environmentId,
          db
            .select({ id: environments.id })
            .from(environments)
            .where(eq(environments.subscriptionId, scope.subscriptionId)),
        ),
      );
    return row?.n ?? 0;
  }
  const table = counted[scope.kind];
  const [row] = await db
    .select({ n: count() })
    .from(table)
    .where(eq(table.environmentId, scope.environmentId));
  return row?.n ?? 0;
};

/**
 * Runs `insert` only while the scope holds fewer than `max` rows, else `refuse()` is thrown; in one transaction
 * under a lock per scope, so concurrent creations cannot all pass the count (534 templates were once created
 * against a quota of 500).
 */
export const insertWithinQuota = async <T>(
  db: Db,
  scope: QuotaScope,
  max: number,
  refuse: () => Error,
  insert: (tx: Db) => Promise<T>,
): Promise<T> =>
  withinTransaction(db, async (tx) => {
    const key =
      scope.kind === 'templates'
        ? `quota:templates:${scope.subscriptionId}`
        : `quota:${scope.kind}:${scope.environmentId}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    if ((await countIn(tx as unknown as Db, scope)) >= max) throw refuse();
    return insert(tx as unknown as Db);
  });

/**
 * Keeps the newest `keep` pending authorization-code logins of a user (across connectors), dropping the older
 * ones: a user who starts logins without finishing them cannot fill the table (each lives 10 minutes).
 */
export const trimPendingLogins = async (db: Db, userId: string, keep: number): Promise<void> => {
  await db.execute(sql`
    delete from ${oauthLoginStates} where ${oauthLoginStates.state} in (
      select ${oauthLoginStates.state} from ${oauthLoginStates}
      where ${oauthLoginStates.userId} = ${userId}
      order by ${oauthLoginStates.expiresAt} desc
      offset ${keep})`);
};
