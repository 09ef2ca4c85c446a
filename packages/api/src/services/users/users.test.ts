import {
  ForbiddenError,
  NotFoundError,
  SubscriptionUserModel,
  UserModel,
  ValidationError,
} from '@platform/core';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contextFor,
  ENV_DEV,
  ENV_PROD,
  ENV_SANDBOX,
  operator,
  SUB_ACME,
  SUB_GLOBEX,
  seededDatabase,
} from '../access.fixture.ts';
import { getSubscriptionUser } from './get.ts';
import { listSubscriptionUsers } from './list.ts';

const backends = await testBackends();

describe.each(backends)('user services on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await seededDatabase(backend);
  }, 120_000);
  afterAll(() => database?.close());

  const as = (userId: string) => contextFor(database, userId);

  describe('list', () => {
    it('lists the users of a subscription for owners, admins and operators', async () => {
      const list = await listSubscriptionUsers(as('auth0|alice'), { subscriptionId: SUB_ACME });
      for (const user of list) expect(UserModel.parse(user)).toEqual(user);
      expect(list.map((user) => user.id)).toEqual(['auth0|alice', 'auth0|bob', 'auth0|carol']);
      expect(list[0]).toEqual({
        id: 'auth0|alice',
        email: 'alice@example.com',
        firstName: 'alice',
        lastName: null,
        avatar: 'https://example.com/alice.png',
        lastSeen: 1763600000,
        status: 'Active',
        membershipType: 'Invitation',
      });
      expect(list[1]).toMatchObject({ status: 'Pending', lastSeen: null, membershipType: 'Federated' });
      expect(
        (await listSubscriptionUsers(operator(database), { subscriptionId: SUB_GLOBEX })).map((u) => u.id),
      ).toEqual(['auth0|dave']);
    });

    it('403 for members without Owner/Admin, 404 when not visible', async () => {
      await expect(
        listSubscriptionUsers(as('auth0|bob'), { subscriptionId: SUB_ACME }),
      ).rejects.toBeInstanceOf(ForbiddenError);
      await expect(
        listSubscriptionUsers(as('auth0|carol'), { subscriptionId: SUB_ACME }),
      ).rejects.toBeInstanceOf(ForbiddenError);
      await expect(
        listSubscriptionUsers(as('auth0|erin'), { subscriptionId: SUB_ACME }),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        listSubscriptionUsers(as('auth0|dave'), { subscriptionId: SUB_ACME }),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        listSubscriptionUsers(as('auth0|alice'), { subscriptionId: 'bad' }),
      ).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('get', () => {
    it('answers SubscriptionUserModel with roles and hasFullAccess', async () => {
      const carol = await getSubscriptionUser(as('auth0|alice'), {
        subscriptionId: SUB_ACME,
        userId: 'auth0|carol',
      });
      expect(SubscriptionUserModel.parse(carol)).toEqual(carol);
      expect(carol).toEqual({
        id: 'auth0|carol',
        email: 'carol@example.com',
        firstName: 'carol',
        lastName: null,
        avatar: null,
        lastSeen: 1763600000,
        status: 'Active',
        subscriptionRoles: [],
        environmentRoles: {
          [ENV_PROD]: ['TemplateDesigner', 'ContentUser'],
          [ENV_DEV]: ['TemplateDesigner'],
        },
        hasFullAccess: false,
        membershipType: 'Invitation',
      });
      const alice = await getSubscriptionUser(operator(database), {
        subscriptionId: SUB_ACME,
        userId: 'auth0|alice',
      });
      expect(alice).toMatchObject({
        subscriptionRoles: ['SubscriptionOwner'],
        environmentRoles: {},
        hasFullAccess: true,
      });
      const bob = await getSubscriptionUser(as('auth0|alice'), {
        subscriptionId: SUB_ACME,
        userId: 'auth0|bob',
      });
      expect(bob).toMatchObject({
        environmentRoles: { [ENV_SANDBOX]: ['TemplateDesigner'] },
        hasFullAccess: false,
      });
    });

    it('404 for users who are not members, or unknown', async () => {
      for (const userId of ['auth0|dave', 'auth0|erin', 'auth0|nobody']) {
        await expect(
          getSubscriptionUser(as('auth0|alice'), { subscriptionId: SUB_ACME, userId }),
        ).rejects.toBeInstanceOf(NotFoundError);
      }
    });

    it('400 for malformed ids, 403 without Owner/Admin', async () => {
      await expect(
        getSubscriptionUser(as('auth0|alice'), { subscriptionId: SUB_ACME, userId: 'bad user' }),
      ).rejects.toMatchObject({ status: 400, errors: { userId: expect.any(Array) } });
      await expect(
        getSubscriptionUser(as('auth0|alice'), { subscriptionId: SUB_ACME, userId: 'x'.repeat(129) }),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(
        getSubscriptionUser(as('auth0|alice'), { subscriptionId: 'bad', userId: 'auth0|bob' }),
      ).rejects.toMatchObject({ status: 400, errors: { subscriptionId: expect.any(Array) } });
      await expect(
        getSubscriptionUser(as('auth0|bob'), { subscriptionId: SUB_ACME, userId: 'auth0|bob' }),
      ).rejects.toBeInstanceOf(ForbiddenError);
    });
  });
});
