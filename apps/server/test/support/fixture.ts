/**
 * A small data file (docs/data-file.md) with one user per role of interest, two subscriptions and render events at
 * known days, so the tests can compute every expected figure by hand.
 */
export const SUB_A = '0a1b2c3d-0000-4000-8000-00000000000a';
export const SUB_B = '0a1b2c3d-0000-4000-8000-00000000000b';
export const ENV_PROD = '0e000000-0000-4000-8000-000000000001';
export const ENV_SANDBOX = '0e000000-0000-4000-8000-000000000002';
export const ENV_DEV = '0e000000-0000-4000-8000-000000000003';
export const ENV_PROD2 = '0e000000-0000-4000-8000-000000000004';
export const ENV_B = '0e000000-0000-4000-8000-000000000005';

export const USERS = {
  owner: 'auth0|owner',
  admin: 'auth0|admin',
  member: 'auth0|member',
  envAdmin: 'auth0|env-admin',
  contentUser: 'auth0|content-user',
  designer: 'auth0|designer',
  outsider: 'auth0|outsider',
} as const;

const day = (now: Date, daysAgo: number) => {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo, 12));
  return d.toISOString();
};

const env = (
  id: number,
  guid: string,
  name: string,
  technicalName: string,
  type: string,
  storage: number,
) => ({
  id,
  guid,
  name,
  technicalName,
  defaultName: null,
  type,
  region: 'eu-west-1',
  tenantName: 'acme',
  backOfficeUri: `https://${technicalName}.example/backoffice`,
  disableCpoToPlatformRedirect: false,
  storage: { assets: storage, documents: 2, fonts: 3, cache: 4, backup: 5, other: 6 },
});

export const fixture = (now: Date) => ({
  users: Object.values(USERS).map((id, i) => ({
    id,
    email: `${id.split('|')[1]}@acme.example`,
    firstName: `First${i}`,
    lastName: null,
    avatar: null,
    lastSeen: 1763600000 + i,
    status: 'Active',
  })),
  subscriptions: [
    {
      id: 501,
      guid: SUB_A,
      name: 'acme',
      displayName: 'Acme',
      clientId: '0c000000-0000-4000-8000-000000000001',
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
      averageRendersPeriodDays: 30,
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
      licenses: [{ id: 'LIC-1', coresTotal: 8, coresUsed: 2, url: null, licenseType: 'Production' }],
      environments: [
        env(11, ENV_PROD, 'Acme Production', 'acme-prod', 'Production', 100),
        env(12, ENV_SANDBOX, 'Acme Sandbox', 'acme-sandbox', 'Sandbox', 200),
        env(13, ENV_DEV, 'Acme Dev', 'acme-dev', 'Development', 300),
        env(14, ENV_PROD2, 'Acme Production US', 'acme-prod-us', 'Production', 400),
      ],
      members: [
        {
          userId: USERS.owner,
          subscriptionRoles: ['SubscriptionOwner'],
          environmentRoles: {},
          membershipType: 'Invitation',
        },
        {
          userId: USERS.admin,
          subscriptionRoles: ['SubscriptionAdmin'],
          environmentRoles: {},
          membershipType: 'Federated',
        },
        { userId: USERS.member, subscriptionRoles: ['SubscriptionMember'], environmentRoles: {} },
        { userId: USERS.envAdmin, environmentRoles: { [ENV_PROD]: ['EnvironmentAdmin'] } },
        { userId: USERS.contentUser, environmentRoles: { [ENV_PROD]: ['ContentUser'] } },
        {
          userId: USERS.designer,
          environmentRoles: { [ENV_SANDBOX]: ['TemplateDesigner'], [ENV_DEV]: ['TemplateDesigner'] },
        },
      ],
    },
    {
      id: 502,
      guid: SUB_B,
      name: 'globex',
      displayName: 'Globex',
      clientId: '0c000000-0000-4000-8000-000000000002',
      status: 'Inactive',
      subscriptionType: 'OnPremises',
      pricebookVersion: '2024.2',
      subscriptionTier: 'Team',
      environments: [env(21, ENV_B, 'Globex Production', 'globex-prod', 'Production', 10)],
      members: [{ userId: USERS.outsider, subscriptionRoles: ['SubscriptionOwner'] }],
    },
  ],
  renderEvents: [
    { environmentGuid: ENV_PROD, kind: 'Pdf', watermarked: false, at: day(now, 0), count: 10 },
    { environmentGuid: ENV_PROD, kind: 'Image', watermarked: false, at: day(now, 1), count: 5 },
    { environmentGuid: ENV_PROD, kind: 'Pdf', watermarked: true, at: day(now, 1), count: 2 },
    { environmentGuid: ENV_PROD2, kind: 'Pdf', watermarked: false, at: day(now, 2), count: 7 },
    { environmentGuid: ENV_SANDBOX, kind: 'Studio-Gif', watermarked: false, at: day(now, 0), count: 3 },
    { environmentGuid: ENV_DEV, kind: 'Pdf', watermarked: false, at: day(now, 40), count: 4 },
    { environmentGuid: ENV_B, kind: 'Pdf', watermarked: false, at: day(now, 0), count: 1 },
  ],
});
