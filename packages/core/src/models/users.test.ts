import { describe, expect, it } from 'vitest';
import { describeModel, int64Invalid, int64Valid, nonEmptyInvalid } from './describe-model.ts';
import { SubscriptionUserModel, UserId, UserModel } from './users.ts';

const guid = '0b7e4f6c-7b1a-4c8e-9f2d-3a5b6c7d8e9f';
const user = {
  id: 'auth0|alice',
  email: 'alice@example.com',
  firstName: 'Alice',
  lastName: 'Ng',
  avatar: 'https://cdn.example/alice.png',
  lastSeen: 1763600000,
  status: 'Active',
  membershipType: 'Invitation',
};

// docs/admin-api.md: the fields of UserModel, which the specification does not show.
describeModel('UserModel', UserModel, {
  example: user,
  required: ['id', 'email'],
  nullable: ['firstName', 'lastName', 'avatar', 'lastSeen'],
  invalid: [
    ...nonEmptyInvalid('id'),
    ...nonEmptyInvalid('email'),
    ...int64Invalid('lastSeen'),
    ['status', 'Banned', 'not a UserStatus'],
    ['membershipType', 'Direct', 'not a SubscriptionMembershipType'],
  ],
  valid: [
    ...int64Valid('lastSeen'),
    ['status', 'Pending', 'another UserStatus'],
    ['status', 'Disabled', 'another UserStatus'],
    ['membershipType', 'Federated', 'another membership type'],
  ],
});

// See docs/admin-api.md, completed by docs/admin-api.md.
describeModel('SubscriptionUserModel', SubscriptionUserModel, {
  example: {
    ...user,
    subscriptionRoles: ['SubscriptionOwner'],
    environmentRoles: { [guid]: ['EnvironmentAdmin', 'TemplateDesigner'] },
    hasFullAccess: true,
  },
  required: ['id', 'email', 'hasFullAccess'],
  nullable: ['firstName', 'lastName', 'avatar', 'lastSeen', 'subscriptionRoles', 'environmentRoles'],
  invalid: [
    ...nonEmptyInvalid('id'),
    ...nonEmptyInvalid('email'),
    ...int64Invalid('lastSeen'),
    ['status', 'Banned', 'not a UserStatus'],
    ['hasFullAccess', 'yes', 'not a boolean'],
    ['subscriptionRoles', 'SubscriptionOwner', 'a string, not an array'],
    ['environmentRoles', { 'not-a-guid': ['EnvironmentAdmin'] }, 'a key that is not an environment guid'],
    ['environmentRoles', { [guid]: 'EnvironmentAdmin' }, 'a value that is not an array'],
  ],
  valid: [
    ['subscriptionRoles', [], 'no roles'],
    ['environmentRoles', {}, 'no environment roles'],
  ],
});

describe('UserId', () => {
  it.each(['auth0|alice', 'a', 'google-oauth2|1234', 'user@example.com', 'x:y+z_1.2', 'a'.repeat(128)])(
    'accepts %j',
    (id) => expect(UserId.safeParse(id).success).toBe(true),
  );
  it.each(['', 'a'.repeat(129), 'has space', 'slash/ed', 'percent%20', 'ünïcode'])('refuses %j', (id) =>
    expect(UserId.safeParse(id).success).toBe(false),
  );
});
