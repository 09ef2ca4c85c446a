import type { UserModel } from '@platform/core';
import { listSubscriptionUsers as queryUsers } from '@platform/store';
import { loadAdministeredSubscription } from '../access.ts';
import type { Service } from '../context.ts';
import { type ListUsersInput, toUserModel } from './schemas.ts';

/**
 * `GET /api/v1/subscriptions/{subscriptionId}/users`: needs SubscriptionOwner or SubscriptionAdmin (403);
 * invisible, unknown or malformed subscription → 404 (the endpoint lists no 400). Ordered by user id.
 */
export const listSubscriptionUsers: Service<ListUsersInput, UserModel[]> = async (ctx, input) => {
  const { subscription } = await loadAdministeredSubscription(ctx, input.subscriptionId, 404);
  const rows = await queryUsers(ctx.database.db, subscription.id);
  return rows.map(toUserModel);
};
