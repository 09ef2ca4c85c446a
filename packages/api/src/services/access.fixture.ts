import { createFingerprint, importDataFile } from '@platform/store';
import type { TestBackend, TestDatabase } from '@platform/store/testing';
import { pino } from 'pino';
import type { ServiceContext } from './context.ts';
import { uncachedReads } from './read-cache.ts';

/**
 * Test fixture of the admin services: a data file (docs/data-file.md) imported into a fresh database, and service
 * contexts for its users. Not a test itself; the `*.test.ts` files of each service area use it.
 */

export const NOW = new Date('2026-03-15T12:00:00Z');

export const SUB_ACME = '1a000000-0000-4000-8000-000000000101';
export const SUB_GLOBEX = '1a000000-0000-4000-8000-000000000102';
export const ENV_PROD = 'e0000000-0000-4000-8000-000000000001';
export const ENV_PROD_B = 'e0000000-0000-4000-8000-000000000002';
export const ENV_SANDBOX = 'e0000000-0000-4000-8000-000000000003';
export const ENV_DEV = 'e0000000-0000-4000-8000-000000000004';
export const ENV_GLOBEX = 'e0000000-0000-4000-8000-000000000005';

const user = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  email: `${id.split('|')[1]}@example.com`,
  firstName: id.split('|')[1],
  lastName: null,
  avatar: null,
  lastSeen: 1763600000,
  status: 'Active',
  ...extra,
});

const storage = (base: number) => ({
  assets: base,
  documents: base * 2,
  fonts: base * 3,
  cache: base * 4,
  backup: base * 5,
  other: base * 6,
});

const event = (environmentGuid: string, at: string, count: number, kind = 'Pdf', watermarked = false) => ({
  environmentGuid,
  kind,
  watermarked,
  at,
  count,
});

export const dataFile = {
  users: [
    user('auth0|alice', { avatar: 'https://example.com/alice.png' }),
    user('auth0|bob', { status: 'Pending', lastSeen: null }),
    user('auth0|carol'),
    user('auth0|dave'),
    user('auth0|erin'),
    user('auth0|frank'),
  ],
  subscriptions: [
    {
      id: 101,
      guid: SUB_ACME,
      name: 'acme',
      displayName: 'Acme',
      clientId: 'c0000000-0000-4000-8000-000000000101',
      clientName: 'Acme Ltd',
      status: 'Active',
      subscriptionType: 'Saas',
      isPlatformPricebook: true,
      pricebookVersion: '2025.1',
      isWhitelabeled: false,
      subscriptionTier: 'Enterprise',
      maxTemplates: 500,
      maxRenders: 100000,
      maxStorage: 1099511627776,
      averageRendersPeriodDays: 10,
      startDate: '2025-01-01',
      endDate: null,
      billingClientContact: 'billing@acme.example',
      templateDesignerSeatsTotal: 10,
      overdueInvoices: false,
      isPublisherEnabled: true,
      isStudioEnabled: true,
      isExperienceEnabled: null,
      maxSpaces: null,
      experienceExtensions: { isPartnerEnabled: null },
      sandboxEnvironmentsTotal: 2,
      productionEnvironmentsTotal: 2,
      externalIdpDomains: ['acme.example'],
      licenses: [
        { id: 'LIC-1', coresTotal: 8, coresUsed: 2, url: null, licenseType: 'Production' },
        { id: 'LIC-2', coresTotal: null, coresUsed: 0, url: 'https://licenses.example/2', licenseType: null },
      ],
      environments: [
        {
          id: 1,
          guid: ENV_PROD,
          name: 'Acme Production',
          technicalName: 'acme-prod',
          type: 'Production',
          region: 'eu-west-1',
          tenantName: 'acme',
          backOfficeUri: 'https://acme-prod.example/backoffice',
          storage: storage(1),
        },
        {
          id: 2,
          guid: ENV_PROD_B,
          name: 'Acme Brand',
          technicalName: 'acme-brand',
          type: 'Production',
          storage: storage(10),
        },
        {
          id: 3,
          guid: ENV_SANDBOX,
          name: 'Acme Sandbox',
          technicalName: 'acme-sbx',
          type: 'Sandbox',
          storage: storage(100),
        },
        { id: 4, guid: ENV_DEV, name: 'Acme Dev', technicalName: null, type: 'Development' },
      ],
      members: [
        { userId: 'auth0|alice', subscriptionRoles: ['SubscriptionOwner'], environmentRoles: {} },
        {
          userId: 'auth0|bob',
          subscriptionRoles: ['SubscriptionMember'],
          environmentRoles: { [ENV_SANDBOX]: ['TemplateDesigner'] },
          membershipType: 'Federated',
        },
        {
          userId: 'auth0|carol',
          subscriptionRoles: [],
          environmentRoles: {
            [ENV_PROD]: ['TemplateDesigner', 'ContentUser'],
            [ENV_DEV]: ['TemplateDesigner'],
          },
        },
      ],
    },
    {
      id: 102,
      guid: SUB_GLOBEX,
      name: 'globex',
      displayName: 'Globex',
      clientId: 'c0000000-0000-4000-8000-000000000102',
      status: 'Inactive',
      subscriptionType: 'OnPremises',
      pricebookVersion: '2024.2',
      subscriptionTier: 'Team',
      environments: [{ id: 5, guid: ENV_GLOBEX, name: 'Globex', type: 'Production' }],
      members: [{ userId: 'auth0|dave', subscriptionRoles: ['SubscriptionAdmin'], environmentRoles: {} }],
    },
  ],
  renderEvents: [
    // Current month (March 2026): prod 5+3 Pdf, 2 Image, 4 watermarked; sandbox 7; dev 1.
    event(ENV_PROD, '2026-03-15T10:00:00Z', 5),
    event(ENV_PROD, '2026-03-10T23:59:59Z', 3),
    event(ENV_PROD, '2026-03-14T00:00:00Z', 2, 'Image'),
    event(ENV_PROD, '2026-03-01T00:00:00Z', 4, 'Pdf', true),
    event(ENV_SANDBOX, '2026-03-02T08:00:00Z', 7),
    event(ENV_DEV, '2026-03-12T08:00:00Z', 1),
    // Earlier: February and last year.
    event(ENV_PROD, '2026-02-28T23:00:00Z', 20),
    event(ENV_PROD_B, '2026-02-01T00:00:00Z', 30, 'Studio-Gif'),
    event(ENV_PROD, '2025-04-01T00:00:00Z', 6),
    event(ENV_PROD, '2025-03-31T23:59:59Z', 100),
    event(ENV_GLOBEX, '2026-03-03T00:00:00Z', 50),
  ],
};

/** Imports the fixture into a fresh database of `backend`. */
export const seededDatabase = async (backend: TestBackend): Promise<TestDatabase> => {
  const database = await backend.fresh();
  await importDataFile(database, dataFile);
  return database;
};

const log = pino({ level: 'silent' });

const noSecrets = {
  sealingKeyId: 'none',
  keyIds: [],
  keyIdOf: (_version: string, envelopeId: string) => envelopeId,
  seal(): string {
    throw new Error('no secrets in admin service tests');
  },
  open(): string {
    throw new Error('no secrets in admin service tests');
  },
};

/** A service context for `userId` (operator with `platform:admin`). */
export const contextFor = (database: TestDatabase, userId: string, roles: string[] = []): ServiceContext => ({
  database,
  reads: uncachedReads,
  secrets: noSecrets,
  caller: { userId, roles: new Set(['platform:read', 'platform:write', ...roles]) },
  now: NOW,
  traceId: '0af7651916cd43dd8448eb211c80319c',
  issuer: 'https://issuer.test',
  sourceAddress: '192.0.2.1',
  fingerprint: createFingerprint(new TextEncoder().encode('fixture-key')),
  auditing: true,
  log,
  serverVersion: '1.2.3',
  publicUrl: 'http://127.0.0.1:8080',
});

export const operator = (database: TestDatabase): ServiceContext =>
  contextFor(database, 'ops|operator', ['platform:admin']);
