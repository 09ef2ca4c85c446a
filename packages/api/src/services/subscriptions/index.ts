import { getSubscription } from './get.ts';
import { listSubscriptions } from './list.ts';
import { getSubscriptionRenders } from './renders.ts';

export { getSubscription } from './get.ts';
export { listSubscriptions } from './list.ts';
export { getSubscriptionRenders } from './renders.ts';
export type { GetSubscriptionInput, GetSubscriptionRendersInput, ListSubscriptionsInput } from './schemas.ts';

export const subscriptions = {
  list: listSubscriptions,
  get: getSubscription,
  renders: getSubscriptionRenders,
} as const;
