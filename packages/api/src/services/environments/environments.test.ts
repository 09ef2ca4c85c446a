import {
  BasicEnvironmentModel,
  EnvironmentModel,
  EnvironmentRenderModel,
  NotFoundError,
} from '@platform/core';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contextFor,
  ENV_DEV,
  ENV_GLOBEX,
  ENV_PROD,
  ENV_SANDBOX,
  operator,
  SUB_ACME,
  SUB_GLOBEX,
  seededDatabase,
} from '../access.fixture.ts';
import { getEnvironment } from './get.ts';
import { listEnvironments } from './list.ts';
import { getEnvironmentRenders } from './renders.ts';

const backends = await testBackends();

describe.each(backends)('environment services on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await seededDatabase(backend);
  }, 120_000);
  afterAll(() => database?.close());

  const as = (userId: string) => contextFor(database, userId);
  const names = async (userId: string | null, input: Parameters<typeof listEnvironments>[1] = {}) =>
    (await listEnvironments(userId === null ? operator(database) : as(userId), input)).map((env) => env.name);

  describe('list', () => {
    it('lists visible environments by type, then name', async () => {
      expect(await names('auth0|alice')).toEqual([
        'Acme Brand',
        'Acme Production',
        'Acme Sandbox',
        'Acme Dev',
      ]);
      expect(await names('auth0|bob', { subscriptionId: SUB_ACME })).toEqual([
        'Acme Brand',
        'Acme Production',
        'Acme Sandbox',
        'Acme Dev',
      ]);
      expect(await names('auth0|carol')).toEqual(['Acme Production', 'Acme Dev']);
      expect(await names('auth0|erin')).toEqual([]);
      expect(await names(null)).toEqual([
        'Acme Brand',
        'Acme Production',
        'Globex',
        'Acme Sandbox',
        'Acme Dev',
      ]);
    });

    it('filters by name or technical name, case-insensitive substring', async () => {
      expect(await names('auth0|alice', { environmentName: 'SBX' })).toEqual(['Acme Sandbox']);
      expect(await names('auth0|alice', { environmentName: 'prod' })).toEqual(['Acme Production']);
      expect(await names('auth0|alice', { environmentName: 'ACME' })).toHaveLength(4);
      expect(await names('auth0|alice', { environmentName: '%' })).toEqual([]);
      expect(await names(null, { environmentName: 'globex', subscriptionId: SUB_GLOBEX })).toEqual([
        'Globex',
      ]);
    });

    it('answers 404 for a malformed, unknown or invisible subscription', async () => {
      for (const subscriptionId of ['bad', '1a000000-0000-4000-8000-000000000999', SUB_GLOBEX]) {
        await expect(listEnvironments(as('auth0|alice'), { subscriptionId })).rejects.toBeInstanceOf(
          NotFoundError,
        );
      }
    });

    it('answers BasicEnvironmentModel', async () => {
      const list = await listEnvironments(as('auth0|alice'), {});
      for (const env of list) expect(BasicEnvironmentModel.parse(env)).toEqual(env);
      expect(list[1]).toEqual({
        id: 1,
        guid: ENV_PROD,
        name: 'Acme Production',
        region: 'eu-west-1',
        type: 'Production',
        usedStorage: 21,
        backOfficeUri: 'https://acme-prod.example/backoffice',
        technicalName: 'acme-prod',
      });
      expect(list[3]).toMatchObject({
        technicalName: null,
        region: null,
        backOfficeUri: null,
        usedStorage: 0,
      });
    });
  });

  describe('get', () => {
    it('answers EnvironmentModel with the current month renders', async () => {
      const model = await getEnvironment(as('auth0|carol'), { environmentId: ENV_PROD });
      expect(EnvironmentModel.parse(model)).toEqual(model);
      expect(model).toEqual({
        id: 1,
        guid: ENV_PROD,
        backOfficeUri: 'https://acme-prod.example/backoffice',
        subscriptionId: SUB_ACME,
        name: 'Acme Production',
        defaultName: null,
        type: 'Production',
        usedStorage: 21,
        usedStorageDetail: { assets: 1, documents: 2, fonts: 3, cache: 4, backup: 5, other: 6 },
        tenantName: 'acme',
        region: 'eu-west-1',
        renders: 10,
        watermarkedRenders: 4,
        isPlatformPricebook: true,
        disableCpoToPlatformRedirect: false,
      });
    });

    it('answers 404 for environments the caller may not see', async () => {
      await expect(getEnvironment(as('auth0|carol'), { environmentId: ENV_SANDBOX })).rejects.toThrow(
        `Environment '${ENV_SANDBOX}' was not found`,
      );
      await expect(getEnvironment(as('auth0|alice'), { environmentId: ENV_GLOBEX })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(getEnvironment(as('auth0|alice'), { environmentId: 'x' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      expect((await getEnvironment(operator(database), { environmentId: ENV_GLOBEX })).renders).toBe(50);
    });
  });

  describe('renders', () => {
    it('defaults to 12 month groups ending with the current month', async () => {
      const groups = await getEnvironmentRenders(as('auth0|carol'), {
        environmentId: ENV_PROD,
        groupBy: 'year',
      });
      for (const group of groups) expect(EnvironmentRenderModel.parse(group)).toEqual(group);
      expect(groups).toHaveLength(12);
      expect(groups[0]).toMatchObject({ date: '2025-04-01T00:00:00Z', totalRenders: 6 });
      expect(groups[10]).toMatchObject({ date: '2026-02-01T00:00:00Z', totalRenders: 20 });
      expect(groups[11]).toEqual({
        date: '2026-03-01T00:00:00Z',
        totalRenders: 10,
        totalWatermarkedRenders: 4,
        renderDetail: [
          { name: 'Pdf', renders: 8 },
          { name: 'Image', renders: 2 },
        ],
      });
    });

    it('counts only the given days of a custom range', async () => {
      const groups = await getEnvironmentRenders(as('auth0|carol'), {
        environmentId: ENV_PROD,
        groupBy: 'year',
        startDate: '2026-03-11',
        endDate: '2026-03-31',
      });
      expect(groups).toEqual([
        {
          date: '2026-03-01T00:00:00Z',
          totalRenders: 7,
          totalWatermarkedRenders: 0,
          renderDetail: [
            { name: 'Pdf', renders: 5 },
            { name: 'Image', renders: 2 },
          ],
        },
      ]);
      const days = await getEnvironmentRenders(as('auth0|carol'), {
        environmentId: ENV_DEV,
        groupBy: 'month',
        startDate: '2026-03-12',
        endDate: '2026-03-13',
      });
      expect(days.map((day) => day.totalRenders)).toEqual([1, 0]);
    });

    it('400 for a bad query or a malformed id, 404 for an invisible environment', async () => {
      const ctx = as('auth0|carol');
      await expect(getEnvironmentRenders(ctx, { environmentId: ENV_PROD })).rejects.toMatchObject({
        status: 400,
        errors: { groupBy: expect.any(Array) },
      });
      await expect(
        getEnvironmentRenders(ctx, {
          environmentId: ENV_PROD,
          groupBy: 'month',
          startDate: '2026-02-30',
          endDate: '2026-03-01',
        }),
      ).rejects.toMatchObject({ status: 400, errors: { startDate: expect.any(Array) } });
      await expect(
        getEnvironmentRenders(ctx, { environmentId: 'bad', groupBy: 'month' }),
      ).rejects.toMatchObject({
        status: 400,
      });
      await expect(
        getEnvironmentRenders(ctx, { environmentId: ENV_SANDBOX, groupBy: 'month' }),
      ).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
