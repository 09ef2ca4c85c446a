import {
  canSeeEnvironment,
  currentMonthRange,
  type SubscriptionModel,
  trailingDaysRange,
} from '@platform/core';
import { loadSubscriptionFigures, perDay } from '@platform/store';
import { loadSubscription } from '../access.ts';
import type { Service } from '../context.ts';
import { type GetSubscriptionInput, toSubscriptionModel } from './schemas.ts';

/**
 * `GET /api/v1/subscriptions/{subscriptionId}`: not visible, unknown or malformed → 404. Its `environments` are those
 * the caller may see: one who holds roles on some environments only learns nothing of the others (their figures stay
 * in the subscription's totals, which are the subscription's own).
 */
export const getSubscription: Service<GetSubscriptionInput, SubscriptionModel> = async (ctx, input) => {
  const { subscription, access } = await loadSubscription(ctx, input.subscriptionId, 404);
  const days = subscription.averageRendersPeriodDays;
  const month = currentMonthRange(ctx.now);
  const window = trailingDaysRange(ctx.now, days);
  // The answer depends on the data and on today (the current month, the averaging window).
  const model = await ctx.reads.read(
    `subscription\u0000${subscription.id}\u0000${window.endDay}`,
    async () => {
      // The environments, the totals of the current month and of the averaging window, and the designer seats are
      // read by one statement: one round trip after the access check.
      const figures = await loadSubscriptionFigures(ctx.database.db, subscription.id, [month, window]);
      const [used, averaged] = figures.totals;
      return toSubscriptionModel(subscription, {
        environments: figures.environments,
        used: used!,
        average: perDay(averaged!, days),
        templateDesignerSeatsUsed: figures.templateDesigners,
      });
    },
  );
  const environments = model.environments.filter((environment) =>
    canSeeEnvironment(access, environment.guid),
  );
  return environments.length === model.environments.length ? model : { ...model, environments };
};
