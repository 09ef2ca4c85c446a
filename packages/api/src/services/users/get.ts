import {
  hasFullAccess,
  NotFoundError,
  type SubscriptionUserModel,
  UserId,
  ValidationError,
} from '@platform/core';
import { findMembership, findUser } from '@platform/store';
import { loadAdministeredSubscription } from '../access.ts';
import type { Service } from '../context.ts';
import { type GetUserInput, toSubscriptionUserModel } from './schemas.ts';

/**
 * `GET /api/v1/subscriptions/{subscriptionId}/users/{userId}`: the endpoint lists 400 for either id missing or
 * malformed; needs SubscriptionOwner or SubscriptionAdmin (403); a user who is not a member → 404.
 */
export const getSubscriptionUser: Service<GetUserInput, SubscriptionUserModel> = async (ctx, input) => {
  if (!UserId.safeParse(input.userId).success) {
    throw new ValidationError('userId must be 1–128 characters of letters, digits and |@._:+-.', {
      userId: ['1–128 characters of letters, digits and |@._:+-'],
    });
  }
  const { subscription } = await loadAdministeredSubscription(ctx, input.subscriptionId, 400);
  const { db } = ctx.database;
  const [user, membership] = await Promise.all([
    findUser(db, input.userId),
    findMembership(db, subscription.id, input.userId),
  ]);
  if (!user || !membership) {
    throw new NotFoundError(`User '${input.userId}' was not found in subscription '${subscription.guid}'.`);
  }
  return toSubscriptionUserModel(user, membership, hasFullAccess(membership));
};
