import type {
  SubscriptionMembershipType,
  SubscriptionUserModel,
  UserModel,
  UserStatus,
} from '@platform/core';
import type { MembershipRecord, UserRow } from '@platform/store';

/** Inputs of the user services: path parameters, as the transports pass them. */
export type ListUsersInput = { subscriptionId: string };
export type GetUserInput = { subscriptionId: string; userId: string };

/** `membershipType` is left out for users who hold only environment roles (it is optional, not nullable). */
const membershipTypeOf = (value: string | null): { membershipType?: SubscriptionMembershipType } =>
  value === null ? {} : { membershipType: value as SubscriptionMembershipType };

/** docs/admin-api.md UserModel. */
export const toUserModel = (row: UserRow & { membershipType: string | null }): UserModel => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  avatar: row.avatar,
  lastSeen: row.lastSeen,
  status: row.status as UserStatus,
  ...membershipTypeOf(row.membershipType),
});

/** See docs/admin-api.md completed by docs/admin-api.md. */
export const toSubscriptionUserModel = (
  row: UserRow,
  membership: MembershipRecord,
  hasFullAccess: boolean,
): SubscriptionUserModel => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  avatar: row.avatar,
  lastSeen: row.lastSeen,
  status: row.status as UserStatus,
  subscriptionRoles: membership.subscriptionRoles,
  environmentRoles: membership.environmentRoles,
  hasFullAccess,
  ...membershipTypeOf(membership.membershipType),
});
