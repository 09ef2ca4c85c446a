import { z } from 'zod';
import { SubscriptionMembershipType, UserStatus } from './enums.ts';
import { int64, nonEmpty, nullableString, uuid } from './scalars.ts';

/** docs/admin-api.md: 1–128 characters of letters, digits and `|@._:+-`. */
export const UserId = z
  .string()
  .regex(/^[A-Za-z0-9|@._:+-]{1,128}$/, '1–128 characters of letters, digits and |@._:+-');

/** The element of the subscription user list (docs/admin-api.md). */
export const UserModel = z
  .strictObject({
    id: nonEmpty(),
    email: nonEmpty(),
    firstName: nullableString(),
    lastName: nullableString(),
    avatar: nullableString(),
    lastSeen: int64().nullable().optional(),
    status: UserStatus.optional(),
    membershipType: SubscriptionMembershipType.optional(),
  })
  .meta({ id: 'UserModel' });
export type UserModel = z.infer<typeof UserModel>;

/** See docs/admin-api.md, completed by docs/admin-api.md. */
export const SubscriptionUserModel = z
  .strictObject({
    id: nonEmpty(),
    email: nonEmpty(),
    firstName: nullableString(),
    lastName: nullableString(),
    avatar: nullableString(),
    lastSeen: int64().nullable().optional(),
    status: UserStatus.optional(),
    subscriptionRoles: z.array(z.string()).nullable().optional(),
    environmentRoles: z.record(uuid(), z.array(z.string())).nullable().optional(),
    hasFullAccess: z.boolean(),
    membershipType: SubscriptionMembershipType.optional(),
  })
  .meta({ id: 'SubscriptionUserModel' });
export type SubscriptionUserModel = z.infer<typeof SubscriptionUserModel>;
