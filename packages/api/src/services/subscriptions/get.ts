import { currentMonthRange, type SubscriptionModel, trailingDaysRange } from '@platform/core';
import {
  averageDailyRenders,
  countTemplateDesigners,
  listEnvironmentsOfSubscription,
  sumRenders,
} from '@platform/store';
import { loadSubscription } from '../access.ts';
import type { Service } from '../context.ts';
import { type GetSubscriptionInput, toSubscriptionModel } from './schemas.ts';

/** `GET /api/v1/subscriptions/{subscriptionId}`: not visible, unknown or malformed → 404. */
export const getSubscription: Service<GetSubscriptionInput, SubscriptionModel> = async (ctx, input) => {
  const { subscription } = await loadSubscription(ctx, input.subscriptionId, 404);
  const { db } = ctx.database;
  const scope = { subscriptionId: subscription.id };
  const days = subscription.averageRendersPeriodDays;
  const [environments, used, average, templateDesignerSeatsUsed] = await Promise.all([
    listEnvironmentsOfSubscription(db, subscription.id),
    sumRenders(db, scope, currentMonthRange(ctx.now)),
    averageDailyRenders(db, scope, { ...trailingDaysRange(ctx.now, days), count: days }),
    countTemplateDesigners(db, subscription.id),
  ]);
  return toSubscriptionModel(subscription, { environments, used, average, templateDesignerSeatsUsed });
};
