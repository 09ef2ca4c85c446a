import {
  BasicSubscriptionModel,
  NotFoundError,
  SubscriptionModel,
  SubscriptionRendersModel,
  ValidationError,
} from '@platform/core';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor, ENV_GLOBEX, operator, SUB_ACME, SUB_GLOBEX, seededDatabase } from '../access.fixture.ts';
import { getSubscription } from './get.ts';
import { listSubscriptions } from './list.ts';
import { getSubscriptionRenders } from './renders.ts';

const backends = await testBackends();

describe.each(backends)('subscription services on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await seededDatabase(backend);
  }, 120_000);
  afterAll(() => database?.close());

  const as = (userId: string) => contextFor(database, userId);

  describe('list', () => {
    it('lists the visible subscriptions ordered by id', async () => {
      const ids = async (ctx: ReturnType<typeof as>) => (await listSubscriptions(ctx, {})).map((s) => s.id);
      expect(await ids(as('auth0|alice'))).toEqual([101]);
      expect(await ids(as('auth0|carol'))).toEqual([101]); // environment roles only
      expect(await ids(as('auth0|dave'))).toEqual([102]);
      expect(await ids(as('auth0|erin'))).toEqual([]);
      expect(await ids(as('nobody|x'))).toEqual([]);
      expect(await ids(operator(database))).toEqual([101, 102]);
    });

    it('answers BasicSubscriptionModel', async () => {
      const [acme, globex] = await listSubscriptions(operator(database), {});
      expect(BasicSubscriptionModel.parse(acme)).toEqual(acme);
      expect(acme).toEqual({
        id: 101,
        guid: SUB_ACME,
        name: 'acme',
        displayName: 'Acme',
        isActive: true,
        clientId: 'c0000000-0000-4000-8000-000000000101',
        clientName: 'Acme Ltd',
        isPlatformPricebook: true,
        subscriptionType: 'Saas',
        pricebookVersion: '2025.1',
        isWhitelabeled: false,
      });
      expect(BasicSubscriptionModel.parse(globex)).toEqual(globex);
      expect(globex).toMatchObject({ isActive: false, clientName: null });
    });
  });

  describe('get', () => {
    it('derives the usage fields (docs/admin-api.md)', async () => {
      const model = await getSubscription(as('auth0|carol'), { subscriptionId: SUB_ACME });
      expect(SubscriptionModel.parse(model)).toEqual(model);
      expect(model).toMatchObject({
        id: 101,
        usedRenders: 18,
        usedWatermarkedRenders: 4,
        averageRenders: 1, // 11 renders over the last 10 days, rounded down
        averageWatermarkedRenders: 0,
        averageRendersPeriodDays: 10,
        storageUsed: 21 + 210 + 2100,
        templateDesignerSeatsUsed: 2,
        templateDesignerSeatsTotal: 10,
        tenantInformation: {
          sandboxEnvironmentsTotal: 2,
          sandboxEnvironmentsUsed: 1,
          productionEnvironmentsTotal: 2,
          productionEnvironmentsUsed: 2,
        },
        status: 'Active',
        startDate: '2025-01-01',
        endDate: null,
        isExperienceEnabled: null,
        maxSpaces: null,
        experienceExtensions: { isPartnerEnabled: null },
      });
      // Carol holds roles on two environments only: the others are not hers to learn of.
      expect(model.environments.map((env) => env.name)).toEqual(['Acme Production', 'Acme Dev']);
      const owners = await getSubscription(as('auth0|alice'), { subscriptionId: SUB_ACME });
      expect(owners.environments.map((env) => env.name)).toEqual([
        'Acme Brand',
        'Acme Production',
        'Acme Sandbox',
        'Acme Dev',
      ]);
      expect({ ...owners, environments: [] }).toEqual({ ...model, environments: [] });
      expect(model.licenses).toEqual([
        { id: 'LIC-1', coresTotal: 8, coresUsed: 2, url: null, licenseType: 'Production' },
        { id: 'LIC-2', coresTotal: null, coresUsed: 0, url: 'https://licenses.example/2' },
      ]);
    });

    it('leaves out what is optional but not nullable', async () => {
      const model = await getSubscription(as('auth0|dave'), { subscriptionId: SUB_GLOBEX.toUpperCase() });
      expect(SubscriptionModel.parse(model)).toEqual(model);
      expect(model.tenantInformation).toEqual({
        sandboxEnvironmentsUsed: 0,
        productionEnvironmentsTotal: null,
        productionEnvironmentsUsed: 1,
      });
      expect(model).toMatchObject({ usedRenders: 50, licenses: null, status: 'Inactive' });
    });

    it('answers 404 for invisible, unknown and malformed subscriptions', async () => {
      for (const [userId, subscriptionId] of [
        ['auth0|erin', SUB_ACME],
        ['auth0|alice', SUB_GLOBEX],
        ['auth0|alice', '1a000000-0000-4000-8000-000000000999'],
        ['auth0|alice', 'not-a-guid'],
        ['auth0|alice', ENV_GLOBEX],
      ] as const) {
        const call = getSubscription(as(userId), { subscriptionId });
        await expect(call).rejects.toBeInstanceOf(NotFoundError);
        await expect(call).rejects.toThrow(
          `Subscription '${subscriptionId}' was not found for the authenticated user.`,
        );
      }
    });

    it('operators see every subscription', async () => {
      expect((await getSubscription(operator(database), { subscriptionId: SUB_GLOBEX })).id).toBe(102);
    });
  });

  describe('renders', () => {
    const range = { groupBy: 'year', startDate: '2026-02-01', endDate: '2026-03-31' };

    it('lists every environment in every group', async () => {
      const groups = await getSubscriptionRenders(as('auth0|alice'), { subscriptionId: SUB_ACME, ...range });
      for (const group of groups) expect(SubscriptionRendersModel.parse(group)).toEqual(group);
      expect(groups).toEqual([
        {
          date: '2026-02-01T00:00:00Z',
          totalRenders: 50,
          totalWatermarkedRenders: 0,
          environments: [
            { name: 'Acme Brand', renders: 30, watermarkedRenders: 0 },
            { name: 'Acme Production', renders: 20, watermarkedRenders: 0 },
            { name: 'Acme Sandbox', renders: 0, watermarkedRenders: 0 },
            { name: 'Acme Dev', renders: 0, watermarkedRenders: 0 },
          ],
        },
        {
          date: '2026-03-01T00:00:00Z',
          totalRenders: 18,
          totalWatermarkedRenders: 4,
          environments: [
            { name: 'Acme Production', renders: 10, watermarkedRenders: 4 },
            { name: 'Acme Brand', renders: 0, watermarkedRenders: 0 },
            { name: 'Acme Sandbox', renders: 7, watermarkedRenders: 0 },
            { name: 'Acme Dev', renders: 1, watermarkedRenders: 0 },
          ],
        },
      ]);
    });

    it('top merges the rest into Others', async () => {
      const groups = await getSubscriptionRenders(as('auth0|alice'), {
        subscriptionId: SUB_ACME,
        ...range,
        top: '1',
      });
      expect(groups.map((group) => group.environments)).toEqual([
        [
          { name: 'Acme Brand', renders: 30, watermarkedRenders: 0 },
          { name: 'Others', renders: 20, watermarkedRenders: 0 },
        ],
        [
          { name: 'Acme Brand', renders: 0, watermarkedRenders: 0 },
          { name: 'Others', renders: 18, watermarkedRenders: 4 },
        ],
      ]);
    });

    it('defaults to 30 day groups ending today', async () => {
      const groups = await getSubscriptionRenders(as('auth0|alice'), {
        subscriptionId: SUB_ACME,
        groupBy: 'month',
      });
      expect(groups).toHaveLength(30);
      expect(groups.at(-1)).toMatchObject({ date: '2026-03-15T00:00:00Z', totalRenders: 5 });
    });

    it('rejects a bad query with 400 and an invisible subscription with 404', async () => {
      const ctx = as('auth0|alice');
      await expect(
        getSubscriptionRenders(ctx, { subscriptionId: SUB_ACME, groupBy: 'Year' }),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(
        getSubscriptionRenders(ctx, { subscriptionId: SUB_ACME, groupBy: 'year', top: '0' }),
      ).rejects.toMatchObject({ errors: { top: expect.any(Array) } });
      await expect(
        getSubscriptionRenders(ctx, { subscriptionId: 'nope', groupBy: 'year' }),
      ).rejects.toMatchObject({
        status: 400,
        errors: { subscriptionId: expect.any(Array) },
      });
      await expect(
        getSubscriptionRenders(ctx, { subscriptionId: SUB_GLOBEX, groupBy: 'year' }),
      ).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
