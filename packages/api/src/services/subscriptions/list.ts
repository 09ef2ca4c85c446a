import type { BasicSubscriptionModel } from '@platform/core';
import { listAllSubscriptions, listSubscriptionsVisibleTo } from '@platform/store';
import { isOperator, type Service } from '../context.ts';
import { type ListSubscriptionsInput, toBasicSubscription } from './schemas.ts';

/** `GET /api/v1/subscriptions`: the subscriptions the caller may see, ordered by id (docs/admin-api.md). */
export const listSubscriptions: Service<ListSubscriptionsInput, BasicSubscriptionModel[]> = async (ctx) => {
  const { db } = ctx.database;
  const rows = isOperator(ctx.caller)
    ? await listAllSubscriptions(db)
    : await listSubscriptionsVisibleTo(db, ctx.caller.userId);
  return rows.map(toBasicSubscription);
};
