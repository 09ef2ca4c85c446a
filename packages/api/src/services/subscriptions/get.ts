import { currentMonthRange, type SubscriptionModel, trailingDaysRange } from '@platform/core';
import {
  countTemplateDesigners,
  listEnvironmentsOfSubscription,
  perDay,
  sumRendersInRanges,
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
  // The current month and the averaging window are totalled by one statement.
  const [environments, [used, window], templateDesignerSeatsUsed] = await Promise.all([
    listEnvironmentsOfSubscription(db, subscription.id),
    sumRendersInRanges(db, scope, [currentMonthRange(ctx.now), trailingDaysRange(ctx.now, days)]),
    countTemplateDesigners(db, subscription.id),
  ]);
  return toSubscriptionModel(subscription, {
    environments,
    used: used!,
    average: perDay(window!, days),
    templateDesignerSeatsUsed,
  });
};
