import { describe, expect, it } from 'vitest';
import {
  type Access,
  canAdministerSubscription,
  canSeeEnvironment,
  canSeeSubscription,
  canWriteEnvironment,
  hasFullAccess,
  type Membership,
} from './access.ts';

const env = '0b7e4f6c-7b1a-4c8e-9f2d-3a5b6c7d8e9f';
const otherEnv = '1c8f5a7d-8c2b-4d9f-a03e-4b6c7d8e9fa0';

const member = (
  subscriptionRoles: string[],
  environmentRoles: Record<string, string[]> = {},
): Membership => ({
  subscriptionRoles,
  environmentRoles,
});

type Expectation = {
  seeSubscription: boolean;
  seeEnv: boolean;
  seeOtherEnv: boolean;
  administer: boolean;
  writeEnv: boolean;
  writeOtherEnv: boolean;
  fullAccess: boolean;
};

const none: Expectation = {
  seeSubscription: false,
  seeEnv: false,
  seeOtherEnv: false,
  administer: false,
  writeEnv: false,
  writeOtherEnv: false,
  fullAccess: false,
};
const owner: Expectation = {
  seeSubscription: true,
  seeEnv: true,
  seeOtherEnv: true,
  administer: true,
  writeEnv: true,
  writeOtherEnv: true,
  fullAccess: true,
};
const subscriptionReader = { ...none, seeSubscription: true, seeEnv: true, seeOtherEnv: true };
const envReader = { ...none, seeSubscription: true, seeEnv: true };

/** Every role docs/authentication.md defines, alone, plus the corner cases around them. */
const matrix: [string, Membership | null, boolean, Expectation][] = [
  ['no membership', null, false, none],
  ['empty membership', member([]), false, none],
  ['SubscriptionOwner', member(['SubscriptionOwner']), false, owner],
  ['SubscriptionAdmin', member(['SubscriptionAdmin']), false, owner],
  ['SubscriptionMember', member(['SubscriptionMember']), false, subscriptionReader],
  [
    'EnvironmentAdmin on env',
    member([], { [env]: ['EnvironmentAdmin'] }),
    false,
    { ...envReader, writeEnv: true },
  ],
  ['TemplateDesigner on env', member([], { [env]: ['TemplateDesigner'] }), false, envReader],
  ['ContentUser on env', member([], { [env]: ['ContentUser'] }), false, envReader],
  [
    'EnvironmentAdmin on env, upper-case key',
    member([], { [env.toUpperCase()]: ['EnvironmentAdmin'] }),
    false,
    {
      ...envReader,
      writeEnv: true,
    },
  ],
  ['empty role list on env', member([], { [env]: [] }), false, none],
  ['unknown roles', member(['Superuser'], { [env]: ['Root'] }), false, none],
  [
    'SubscriptionMember + EnvironmentAdmin on env',
    member(['SubscriptionMember'], { [env]: ['EnvironmentAdmin'] }),
    false,
    {
      ...subscriptionReader,
      writeEnv: true,
    },
  ],
  ['operator without membership', null, true, { ...owner, fullAccess: false }],
  ['operator who is a member', member(['SubscriptionMember']), true, { ...owner, fullAccess: false }],
];

describe.each(matrix)('%s', (_name, membership, isOperator, want) => {
  const access: Access = { membership, isOperator };
  it('sees what docs/authentication.md allows', () => {
    expect(canSeeSubscription(access)).toBe(want.seeSubscription);
    expect(canSeeEnvironment(access, env)).toBe(want.seeEnv);
    expect(canSeeEnvironment(access, otherEnv)).toBe(want.seeOtherEnv);
  });
  it('administers and writes what docs/authentication.md allows', () => {
    expect(canAdministerSubscription(access)).toBe(want.administer);
    expect(canWriteEnvironment(access, env)).toBe(want.writeEnv);
    expect(canWriteEnvironment(access, otherEnv)).toBe(want.writeOtherEnv);
  });
  it('has full access exactly with SubscriptionOwner or SubscriptionAdmin', () => {
    expect(hasFullAccess(membership)).toBe(want.fullAccess);
  });
});

describe('access invariants', () => {
  it('whoever may write an environment or administer a subscription can also see it', () => {
    for (const [, membership, isOperator] of matrix) {
      const access = { membership, isOperator };
      for (const guid of [env, otherEnv]) {
        if (canWriteEnvironment(access, guid)) expect(canSeeEnvironment(access, guid)).toBe(true);
        if (canSeeEnvironment(access, guid)) expect(canSeeSubscription(access)).toBe(true);
      }
      if (canAdministerSubscription(access)) expect(canSeeSubscription(access)).toBe(true);
    }
  });
});
