import { EnvironmentRole, SubscriptionRole } from '../models/enums.ts';

/**
 * Access rules of docs/authentication.md, as pure functions. A membership is stored per subscription and user, so
 * the functions about an environment expect the membership of the subscription the environment belongs to.
 * Only role codes docs/authentication.md defines count: an unknown string in stored data never grants anything.
 */
export type Membership = {
  subscriptionRoles: readonly string[];
  /** Environment guid → role codes on that environment. */
  environmentRoles: Readonly<Record<string, readonly string[]>>;
};

export type Access = {
  /** The caller's membership in the subscription concerned, or null when it has none. */
  membership: Membership | null;
  /** Holds the `platform:admin` token role: sees and administers everything, as an owner would. */
  isOperator: boolean;
};

const subscriptionRoles = new Set<string>(SubscriptionRole.options);
const environmentRoles = new Set<string>(EnvironmentRole.options);
const fullAccessRoles = new Set<string>(['SubscriptionOwner', 'SubscriptionAdmin']);

const holdsSubscriptionRole = (membership: Membership): boolean =>
  membership.subscriptionRoles.some((role) => subscriptionRoles.has(role));

/** Guids are compared without regard to case: the same environment may be named in either spelling. */
const rolesOn = (membership: Membership, envGuid: string): readonly string[] => {
  const wanted = envGuid.toLowerCase();
  const out: string[] = [];
  for (const [guid, roles] of Object.entries(membership.environmentRoles)) {
    if (guid.toLowerCase() === wanted) out.push(...roles);
  }
  return out;
};

/** `hasFullAccess` of SubscriptionUserModel: holds SubscriptionOwner or SubscriptionAdmin. */
export const hasFullAccess = (membership: Membership | null): boolean =>
  membership?.subscriptionRoles.some((role) => fullAccessRoles.has(role)) ?? false;

/** Any subscription role in it, or any environment role on one of its environments. */
export const canSeeSubscription = ({ membership, isOperator }: Access): boolean => {
  if (isOperator) return true;
  if (!membership) return false;
  return (
    holdsSubscriptionRole(membership) ||
    Object.values(membership.environmentRoles).some((roles) =>
      roles.some((role) => environmentRoles.has(role)),
    )
  );
};

/** Any subscription role in its subscription, or any environment role on this environment. */
export const canSeeEnvironment = ({ membership, isOperator }: Access, envGuid: string): boolean => {
  if (isOperator) return true;
  if (!membership) return false;
  return (
    holdsSubscriptionRole(membership) ||
    rolesOn(membership, envGuid).some((role) => environmentRoles.has(role))
  );
};

/** Users list, user detail and the identity-provider domains: SubscriptionOwner or SubscriptionAdmin. */
export const canAdministerSubscription = ({ membership, isOperator }: Access): boolean =>
  isOperator || hasFullAccess(membership);

/** Environment API writes: EnvironmentAdmin on the environment, or SubscriptionOwner/SubscriptionAdmin. */
export const canWriteEnvironment = ({ membership, isOperator }: Access, envGuid: string): boolean => {
  if (isOperator || hasFullAccess(membership)) return true;
  return membership !== null && rolesOn(membership, envGuid).includes('EnvironmentAdmin');
};
