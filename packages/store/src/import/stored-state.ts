import { sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import type { Db } from '../types.ts';

export type StoredEnvironment = {
  id: number;
  guid: string;
  subscriptionId: number;
  technicalName: string | null;
};
export type StoredSubscription = { id: number; guid: string };

/** What an import is checked against: the stored environments and subscriptions, and which user ids exist. */
export type StoredState = {
  environments: StoredEnvironment[];
  subscriptions: StoredSubscription[];
  userIds: Set<string>;
};

export const loadStoredState = async (
  db: Pick<Db, 'execute'>,
  userIds: readonly string[],
): Promise<StoredState> => {
  const environments = await queryRows<StoredEnvironment>(
    db,
    sql`select id, guid::text as guid, subscription_id as "subscriptionId", technical_name as "technicalName"
        from environments`,
  );
  const subscriptions = await queryRows<StoredSubscription>(
    db,
    sql`select id, guid::text as guid from subscriptions`,
  );
  const users =
    userIds.length === 0
      ? []
      : await queryRows<{ id: string }>(
          db,
          sql`select id from users where id in (select json_array_elements_text(${JSON.stringify(userIds)}::json))`,
        );
  return { environments, subscriptions, userIds: new Set(users.map((user) => user.id)) };
};
