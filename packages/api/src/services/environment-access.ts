import {
  type Access,
  canSeeEnvironment,
  canWriteEnvironment,
  ForbiddenError,
  NotFoundError,
} from '@platform/core';
import {
  type EnvironmentRow,
  findEnvironmentByReference,
  findMembership,
  type MembershipRecord,
} from '@platform/store';
import { type Caller, isOperator, type ServiceContext } from './context.ts';
import type { ReadCache } from './read-cache.ts';

/**
 * Access to the environment API (docs/authentication.md, docs/environment-api.md): `{environment}` is a guid or a technical name. An
 * environment that is unknown or that the caller cannot see answers 404 (the caller must not learn it exists);
 * writes need EnvironmentAdmin on it or SubscriptionOwner/SubscriptionAdmin (operators may), else 403.
 */
export type EnvironmentScope = {
  readonly environment: EnvironmentRow;
  readonly access: Access;
};

const notFound = (reference: string) =>
  new NotFoundError(`Environment '${reference}' was not found for the authenticated user.`);

type Found = { environment: EnvironmentRow | undefined; membership: MembershipRecord | undefined };

const keyOf = (reference: string, userId: string) => `environment-access\u0000${reference}\u0000${userId}`;

/** The scope of what was found, if the caller may see it; else 404. */
const scopeOf = (caller: Caller, reference: string, { environment, membership }: Found): EnvironmentScope => {
  if (!environment) throw notFound(reference);
  const access: Access = {
    membership: membership
      ? { subscriptionRoles: membership.subscriptionRoles, environmentRoles: membership.environmentRoles }
      : null,
    isOperator: isOperator(caller),
  };
  if (!canSeeEnvironment(access, environment.guid)) throw notFound(reference);
  return { environment, access };
};

/** The environment named by the path if the caller may see it; else 404. */
export const readEnvironment = async (ctx: ServiceContext, reference: string): Promise<EnvironmentScope> => {
  const { db } = ctx.database;
  // PostgreSQL text cannot hold U+0000: such a reference names nothing (and would fail the query).
  if (reference.includes('\u0000')) throw notFound(reference);
  const { userId } = ctx.caller;
  // Every request of the environment API and the proxy starts here: the environment and the caller's membership
  // are kept until a change (of the environment, a membership or a role, from any replica); the check itself runs
  // on every request.
  const found = await ctx.reads.read<Found>(keyOf(reference, userId), async () => {
    const row = await findEnvironmentByReference(db, reference);
    return { environment: row, membership: row && (await findMembership(db, row.subscriptionId, userId)) };
  });
  return scopeOf(ctx.caller, reference, found);
};

/**
 * As `readEnvironment` when the environment and the caller's membership are in memory, without waiting (the proxy
 * route, where a turn of the event loop is a measurable part of a request); undefined when they must be loaded.
 */
export const readEnvironmentNow = (
  reads: ReadCache,
  caller: Caller,
  reference: string,
): EnvironmentScope | undefined => {
  const found = reads.peek<Found>(keyOf(reference, caller.userId));
  return found && scopeOf(caller, reference, found);
};

/** As `readEnvironment`, and the caller must be allowed to change the environment's content, else 403. */
export const writeEnvironment = async (ctx: ServiceContext, reference: string): Promise<EnvironmentScope> => {
  const scope = await readEnvironment(ctx, reference);
  if (!canWriteEnvironment(scope.access, scope.environment.guid)) {
    throw new ForbiddenError(
      'Changing connectors, templates, tags and media of this environment needs the EnvironmentAdmin role on it, or SubscriptionOwner or SubscriptionAdmin.',
    );
  }
  return scope;
};
