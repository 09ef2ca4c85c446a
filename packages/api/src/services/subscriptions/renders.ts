import {
  type EnvironmentType,
  parseRenderQuery,
  type SubscriptionRendersModel,
  subscriptionRenderGroups,
} from '@platform/core';
import { findSubscriptionRenders } from '@platform/store';
import { checkSubscription, loadSubscription, subscriptionGuid } from '../access.ts';
import type { Service } from '../context.ts';
import type { GetSubscriptionRendersInput } from './schemas.ts';

/**
 * `GET /api/v1/subscriptions/{subscriptionId}/renders` (docs/admin-api.md, docs/admin-api.md): the endpoint lists
 * 400, so a malformed id is a 400 (docs/errors.md).
 */
export const getSubscriptionRenders: Service<
  GetSubscriptionRendersInput,
  SubscriptionRendersModel[]
> = async (ctx, input) => {
  const guid = subscriptionGuid(input.subscriptionId, 400);
  let query: ReturnType<typeof parseRenderQuery>;
  try {
    query = parseRenderQuery(
      { groupBy: input.groupBy, top: input.top, startDate: input.startDate, endDate: input.endDate },
      ctx.now,
      { allowTop: true },
    );
  } catch (error) {
    // A subscription the caller cannot see answers 404 before its query is judged.
    await loadSubscription(ctx, input.subscriptionId, 400);
    throw error;
  }
  const { subscription } = await loadSubscription(ctx, input.subscriptionId, 400);
  // The groups follow from groupBy and the range (the default range from today); the answer from those, top and
  // the data.
  const { groupBy, top, startDay, endDay } = query;
  const key = `subscription-renders\u0000${subscription.id}\u0000${groupBy}\u0000${top ?? ''}\u0000${startDay}\u0000${endDay}`;
  return ctx.reads.read(key, async () => {
    // The subscription, the membership, the environments and the render rows in one round trip.
    const found = await findSubscriptionRenders(ctx.database.db, guid, ctx.caller.userId, query);
    const { environments, rows } = checkSubscription(ctx, input.subscriptionId, found);
    return subscriptionRenderGroups(
      environments.map((env) => ({ guid: env.guid, name: env.name, type: env.type as EnvironmentType })),
      rows,
      query,
    );
  });
};
