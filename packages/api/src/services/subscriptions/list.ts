import type { BasicSubscriptionModel } from '@platform/core';
import { listAllSubscriptions, listSubscriptionsVisibleTo } from '@platform/store';
import { isOperator, type Service } from '../context.ts';
import { type ListSubscriptionsInput, toBasicSubscription } from './schemas.ts';

/** `GET /api/v1/subscriptions`: the subscriptions the caller may see, ordered by id (docs/admin-api.md). */
export const listSubscriptions: Service<ListSubscriptionsInput, BasicSubscriptionModel[]> = async (ctx) => {
  const { db } = ctx.database;
  const operator = isOperator(ctx.caller);
  // Kept until a change, as every read of the read cache: the query cost a millisecond of CPU per request on the
  // embedded database, forty times the read of one subscription.
  return ctx.reads.read(
    operator ? 'subscriptions\u0000all' : `subscriptions\u0000visible\u0000${ctx.caller.userId}`,
    async () =>
      (operator
        ? await listAllSubscriptions(db)
        : await listSubscriptionsVisibleTo(db, ctx.caller.userId)
      ).map(toBasicSubscription),
  );
};
