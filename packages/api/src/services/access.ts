import {
  type Access,
  canAdministerSubscription,
  canSeeEnvironment,
  canSeeSubscription,
  ForbiddenError,
  isGuid,
  type Membership,
  NotFoundError,
  ValidationError,
} from '@platform/core';
import {
  type EnvironmentWithSubscription,
  findEnvironmentWithMembership,
  findSubscriptionWithMembership,
  type MembershipRecord,
  type SubscriptionRow,
} from '@platform/store';
import { isOperator, type ServiceContext } from './context.ts';

/**
 * Loading what the caller may see (docs/authentication.md). The rules themselves are core's; this module only loads the
 * caller's membership and turns a refusal into the right error: not visible → 404 (the caller must not learn
 * that the thing exists), visible but not allowed → 403.
 */

/** What a malformed id answers: 400 where the specification lists 400 for the endpoint, else 404 (docs/errors.md). */
export type MalformedId = 400 | 404;

const subscriptionNotFound = (id: unknown) =>
  new NotFoundError(`Subscription '${String(id)}' was not found for the authenticated user.`);

const environmentNotFound = (id: unknown) =>
  new NotFoundError(`Environment '${String(id)}' was not found for the authenticated user.`);

/** A guid parameter, or the error its endpoint gives for a malformed one. */
export const requireGuid = (
  value: unknown,
  name: string,
  malformed: MalformedId,
  notFound: () => Error,
): string => {
  if (isGuid(value)) return value.toLowerCase();
  if (malformed === 404) throw notFound();
  throw new ValidationError(`${name} must be a GUID such as 3f2504e0-4f89-11d3-9a0c-0305e82c3301.`, {
    [name]: ['must be a GUID'],
  });
};

const toMembership = (record: MembershipRecord | undefined): Membership | null =>
  record ? { subscriptionRoles: record.subscriptionRoles, environmentRoles: record.environmentRoles } : null;

export type SubscriptionAccess = {
  readonly subscription: SubscriptionRow;
  readonly membership: MembershipRecord | undefined;
  readonly access: Access;
};

/** The guid `subscriptionId` names, or the error a malformed one answers (400 where listed, else 404). */
export const subscriptionGuid = (subscriptionId: unknown, malformed: MalformedId): string =>
  requireGuid(subscriptionId, 'subscriptionId', malformed, () => subscriptionNotFound(subscriptionId));

/**
 * The access check of a subscription read together with the caller's membership (by `loadSubscription`, or by a
 * statement that reads more in the same round trip): unknown or not visible → 404.
 */
export const checkSubscription = <
  T extends { subscription: SubscriptionRow; membership: MembershipRecord | undefined },
>(
  ctx: ServiceContext,
  subscriptionId: unknown,
  found: T | undefined,
): T & { access: Access } => {
  if (!found) throw subscriptionNotFound(subscriptionId);
  const access: Access = { membership: toMembership(found.membership), isOperator: isOperator(ctx.caller) };
  if (!canSeeSubscription(access)) throw subscriptionNotFound(subscriptionId);
  return { ...found, access };
};

/** The subscription named by `subscriptionId` if the caller may see it; else 404 (400 for a malformed id where listed). */
export const loadSubscription = async (
  ctx: ServiceContext,
  subscriptionId: unknown,
  malformed: MalformedId,
): Promise<SubscriptionAccess> => {
  const guid = subscriptionGuid(subscriptionId, malformed);
  const { userId } = ctx.caller;
  // One round trip for both, kept until a change: every subscription request starts here. The check itself runs
  // on every request.
  const found = await ctx.reads.read(`subscription-access\u0000${guid}\u0000${userId}`, async () => ({
    found: await findSubscriptionWithMembership(ctx.database.db, guid, userId),
  }));
  return checkSubscription(ctx, subscriptionId, found.found);
};

/** As `loadSubscription`, and the caller must hold SubscriptionOwner or SubscriptionAdmin (operators do), else 403. */
export const loadAdministeredSubscription = async (
  ctx: ServiceContext,
  subscriptionId: unknown,
  malformed: MalformedId,
): Promise<SubscriptionAccess> => {
  const loaded = await loadSubscription(ctx, subscriptionId, malformed);
  if (!canAdministerSubscription(loaded.access)) {
    throw new ForbiddenError(
      'Managing the users and identity-provider domains of this subscription needs the SubscriptionOwner or SubscriptionAdmin role.',
    );
  }
  return loaded;
};

export type EnvironmentAccess = {
  readonly environment: EnvironmentWithSubscription;
  readonly access: Access;
};

/** The environment named by `environmentId` if the caller may see it; else 404 (400 for a malformed id where listed). */
export const loadEnvironment = async (
  ctx: ServiceContext,
  environmentId: unknown,
  malformed: MalformedId,
): Promise<EnvironmentAccess> => {
  const guid = requireGuid(environmentId, 'environmentId', malformed, () =>
    environmentNotFound(environmentId),
  );
  const { userId } = ctx.caller;
  // One round trip for both, kept until a change, as for subscriptions.
  const { found } = await ctx.reads.read(
    `environment-with-membership\u0000${guid}\u0000${userId}`,
    async () => ({
      found: await findEnvironmentWithMembership(ctx.database.db, guid, userId),
    }),
  );
  if (!found) throw environmentNotFound(environmentId);
  const { environment, membership } = found;
  const access: Access = { membership: toMembership(membership), isOperator: isOperator(ctx.caller) };
  if (!canSeeEnvironment(access, environment.guid)) throw environmentNotFound(environmentId);
  return { environment, access };
};
