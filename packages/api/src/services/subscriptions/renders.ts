import {
  type EnvironmentType,
  parseRenderQuery,
  type SubscriptionRendersModel,
  subscriptionRenderGroups,
} from '@platform/core';
import { listEnvironmentsOfSubscription, listRenderTotalRows } from '@platform/store';
import { loadSubscription } from '../access.ts';
import type { Service } from '../context.ts';
import type { GetSubscriptionRendersInput } from './schemas.ts';

/**
 * `GET /api/v1/subscriptions/{subscriptionId}/renders` (specification §4.2, CONTRACT.md §5): the endpoint lists
 * 400, so a malformed id is a 400 (CONTRACT.md §4).
 */
export const getSubscriptionRenders: Service<
  GetSubscriptionRendersInput,
  SubscriptionRendersModel[]
> = async (ctx, input) => {
  const { subscription } = await loadSubscription(ctx, input.subscriptionId, 400);
  const query = parseRenderQuery(
    { groupBy: input.groupBy, top: input.top, startDate: input.startDate, endDate: input.endDate },
    ctx.now,
    { allowTop: true },
  );
  const { db } = ctx.database;
  const [environments, rows] = await Promise.all([
    listEnvironmentsOfSubscription(db, subscription.id),
    listRenderTotalRows(db, { subscriptionId: subscription.id }, query),
  ]);
  return subscriptionRenderGroups(
    environments.map((env) => ({ guid: env.guid, name: env.name, type: env.type as EnvironmentType })),
    rows,
    query,
  );
};
