import type { EnvironmentRole, EnvironmentType, SubscriptionRole } from '@platform/core';
import { createPrng, type Prng } from './prng.ts';

/** The demo owner: SubscriptionOwner of every demo subscription; the development issuer mints its token. */
export const DEMO_OWNER_ID = 'demo|owner';

type EnvironmentSpec = {
  technicalName: string;
  name: string;
  type: EnvironmentType;
  region: string;
  scale: number;
};
type SubscriptionSpec = {
  id: number;
  name: string;
  displayName: string;
  clientName: string;
  status: 'Active' | 'Inactive';
  subscriptionType: 'Saas' | 'OnPremises';
  tier: string;
  domains: string[];
  environments: EnvironmentSpec[];
};

const SUBSCRIPTIONS: SubscriptionSpec[] = [
  {
    id: 101,
    name: 'acme',
    displayName: 'Acme',
    clientName: 'Acme Ltd',
    status: 'Active',
    subscriptionType: 'Saas',
    tier: 'Enterprise',
    domains: ['acme.example', 'acme-corp.example'],
    environments: [
      {
        technicalName: 'acme-prod',
        name: 'Acme Production',
        type: 'Production',
        region: 'eu-west-1',
        scale: 1,
      },
      {
        technicalName: 'acme-sandbox',
        name: 'Acme Sandbox',
        type: 'Sandbox',
        region: 'eu-west-1',
        scale: 0.25,
      },
      {
        technicalName: 'acme-dev',
        name: 'Acme Development',
        type: 'Development',
        region: 'eu-west-1',
        scale: 0.1,
      },
      {
        technicalName: 'acme-prod-us',
        name: 'Acme Production US',
        type: 'Production',
        region: 'us-east-1',
        scale: 0.6,
      },
    ],
  },
  {
    id: 102,
    name: 'globex',
    displayName: 'Globex',
    clientName: 'Globex Corporation',
    status: 'Active',
    subscriptionType: 'Saas',
    tier: 'Professional',
    domains: ['globex.example'],
    environments: [
      {
        technicalName: 'globex-prod',
        name: 'Globex Production',
        type: 'Production',
        region: 'us-east-1',
        scale: 0.7,
      },
      {
        technicalName: 'globex-staging',
        name: 'Globex Staging',
        type: 'Sandbox',
        region: 'us-east-1',
        scale: 0.2,
      },
      { technicalName: 'globex-qa', name: 'Globex QA', type: 'Sandbox', region: 'us-east-1', scale: 0.15 },
      {
        technicalName: 'globex-dev',
        name: 'Globex Development',
        type: 'Development',
        region: 'us-east-1',
        scale: 0.05,
      },
    ],
  },
  {
    id: 103,
    name: 'initech',
    displayName: 'Initech',
    clientName: 'Initech Inc.',
    status: 'Active',
    subscriptionType: 'OnPremises',
    tier: 'Standard',
    domains: [],
    environments: [
      {
        technicalName: 'initech-prod',
        name: 'Initech Production',
        type: 'Production',
        region: 'on-premises',
        scale: 0.4,
      },
      {
        technicalName: 'initech-dev',
        name: 'Initech Development',
        type: 'Development',
        region: 'on-premises',
        scale: 0.05,
      },
    ],
  },
  {
    id: 104,
    name: 'umbrella',
    displayName: 'Umbrella',
    clientName: 'Umbrella Group',
    status: 'Inactive',
    subscriptionType: 'Saas',
    tier: 'Starter',
    domains: ['umbrella.example'],
    environments: [
      {
        technicalName: 'umbrella-prod',
        name: 'Umbrella Production',
        type: 'Production',
        region: 'ap-southeast-2',
        scale: 0.3,
      },
      {
        technicalName: 'umbrella-sandbox',
        name: 'Umbrella Sandbox',
        type: 'Sandbox',
        region: 'ap-southeast-2',
        scale: 0.1,
      },
    ],
  },
];

const FIRST = [
  'Alice',
  'Bruno',
  'Chen',
  'Dana',
  'Emeka',
  'Fatima',
  'Goran',
  'Hana',
  'Ivan',
  'Jade',
  'Kofi',
  'Lena',
];
const LAST = [
  'Ng',
  'Silva',
  'Wei',
  'Cohen',
  'Okafor',
  'Haddad',
  'Petrov',
  'Sato',
  'Novak',
  'Moreau',
  'Mensah',
  'Berg',
];
const STATUSES = ['Active', 'Active', 'Active', 'Active', 'Pending', 'Disabled'] as const;

/** Share of a day's renders per kind; Mp4 only where the Studio module is used. */
const KINDS = [
  { kind: 'Pdf', share: 0.5 },
  { kind: 'Image', share: 0.3 },
  { kind: 'Studio-Gif', share: 0.12 },
  { kind: 'Mp4', share: 0.08 },
] as const;

const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

type Member = {
  userId: string;
  subscriptionRoles: SubscriptionRole[];
  environmentRoles: Record<string, EnvironmentRole[]>;
  membershipType: 'Invitation' | 'Federated';
};

type DemoUser = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  avatar: string | null;
  lastSeen: number | null;
  status: (typeof STATUSES)[number];
};

const makeUsers = (prng: Prng, now: Date): DemoUser[] => {
  const users: DemoUser[] = [
    {
      id: DEMO_OWNER_ID,
      email: 'owner@demo.example',
      firstName: 'Demo',
      lastName: 'Owner',
      avatar: null,
      lastSeen: Math.floor(now.getTime() / 1000) - 3600,
      status: 'Active',
    },
  ];
  for (let i = 0; i < 23; i++) {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i * 5 + 3) % LAST.length]!;
    // Users 0–15 belong to one subscription each by email domain, so federated members look plausible.
    const home = SUBSCRIPTIONS[i % SUBSCRIPTIONS.length]!;
    const domain = home.domains[0] ?? `${home.name}.example`;
    const status = prng.pick(STATUSES);
    users.push({
      id: `auth0|${first.toLowerCase()}.${last.toLowerCase()}${i}`,
      email: `${first.toLowerCase()}.${last.toLowerCase()}@${domain}`,
      firstName: first,
      lastName: last,
      avatar: prng.chance(0.5) ? `https://avatars.demo.example/${i}.png` : null,
      lastSeen: status === 'Pending' ? null : Math.floor(now.getTime() / 1000) - prng.int(3600, 90 * 86_400),
      status,
    });
  }
  return users;
};

/**
 * The demo data set (docs/data-file.md shape): four subscriptions (one Inactive, one OnPremises), twelve
 * environments of all three types, 24 users holding every role, and thirteen months of render usage up to
 * `now` with weekly and daily patterns. The same `seed` and `now` give the same file.
 * Render usage comes pre-aggregated (one event per environment, day, kind and watermark flag, with a count),
 * so the file stays small enough to load at every fresh start.
 */
export const demoDataFile = ({ seed = 1, now }: { seed?: number; now: Date }) => {
  const prng = createPrng(seed);
  const users = makeUsers(prng, now);
  const others = users.slice(1);
  let environmentId = 1001;

  const subscriptions = SUBSCRIPTIONS.map((spec, s) => {
    const environments = spec.environments.map((e) => ({
      id: environmentId++,
      guid: prng.guid(),
      name: e.name,
      technicalName: e.technicalName,
      defaultName: null,
      type: e.type,
      region: e.region,
      tenantName: spec.name,
      backOfficeUri: `https://${e.technicalName}.demo.example/backoffice`,
      disableCpoToPlatformRedirect: e.type === 'Development',
      storage: {
        assets: prng.int(1, 400) * 2 ** 24,
        documents: prng.int(1, 200) * 2 ** 22,
        fonts: prng.int(1, 50) * 2 ** 20,
        cache: prng.int(0, 100) * 2 ** 22,
        backup: prng.int(0, 300) * 2 ** 24,
        other: prng.int(0, 50) * 2 ** 20,
      },
    }));
    const production = environments.filter((e) => e.type === 'Production');
    const nonProduction = environments.filter((e) => e.type !== 'Production');

    // Every role appears: an admin and a plain member per subscription, plus environment roles of each kind.
    const members: Member[] = [
      {
        userId: DEMO_OWNER_ID,
        subscriptionRoles: ['SubscriptionOwner'],
        environmentRoles: {},
        membershipType: 'Invitation',
      },
    ];
    const pool = others.filter((_, i) => i % SUBSCRIPTIONS.length === s || i % 7 === s);
    pool.forEach((user, i) => {
      const federated = spec.domains.length > 0 && user.email.endsWith(`@${spec.domains[0]}`) && i % 2 === 1;
      const environmentRoles: Record<string, EnvironmentRole[]> = {};
      const subscriptionRoles: SubscriptionRole[] = [];
      switch (i % 5) {
        case 0:
          subscriptionRoles.push('SubscriptionAdmin');
          break;
        case 1:
          subscriptionRoles.push('SubscriptionMember');
          for (const e of production) environmentRoles[e.guid] = ['TemplateDesigner', 'ContentUser'];
          break;
        case 2:
          for (const e of environments) environmentRoles[e.guid] = ['EnvironmentAdmin'];
          break;
        case 3:
          for (const e of nonProduction) environmentRoles[e.guid] = ['TemplateDesigner'];
          break;
        default:
          subscriptionRoles.push('SubscriptionMember');
          if (environments[0]) environmentRoles[environments[0].guid] = ['ContentUser'];
      }
      members.push({
        userId: user.id,
        subscriptionRoles,
        environmentRoles,
        membershipType: federated ? 'Federated' : 'Invitation',
      });
    });

    return {
      id: spec.id,
      guid: prng.guid(),
      name: spec.name,
      displayName: spec.displayName,
      clientId: prng.guid(),
      clientName: spec.clientName,
      status: spec.status,
      subscriptionType: spec.subscriptionType,
      isPlatformPricebook: spec.subscriptionType === 'Saas',
      pricebookVersion: '2025.1',
      isWhitelabeled: spec.name === 'globex',
      subscriptionTier: spec.tier,
      maxTemplates: spec.tier === 'Enterprise' ? 500 : 100,
      maxRenders: spec.tier === 'Enterprise' ? 100_000 : 20_000,
      maxStorage: 2 ** 40,
      averageRendersPeriodDays: 30,
      startDate: '2024-01-01',
      endDate: spec.status === 'Inactive' ? isoDay(now.getTime() - 90 * DAY_MS) : null,
      billingClientContact: `billing@${spec.name}.example`,
      templateDesignerSeatsTotal: 10,
      overdueInvoices: spec.status === 'Inactive',
      isPublisherEnabled: true,
      isStudioEnabled: spec.name !== 'initech',
      isExperienceEnabled: spec.subscriptionType === 'Saas' ? spec.tier === 'Enterprise' : null,
      maxSpaces: spec.tier === 'Enterprise' ? 20 : null,
      experienceExtensions: { isPartnerEnabled: spec.tier === 'Enterprise' ? true : null },
      sandboxEnvironmentsTotal: 2,
      productionEnvironmentsTotal: production.length + 1,
      externalIdpDomains: spec.domains,
      licenses:
        spec.subscriptionType === 'OnPremises'
          ? [
              {
                id: `LIC-${spec.id}-P`,
                coresTotal: 16,
                coresUsed: 6,
                url: null,
                licenseType: 'Production' as const,
              },
              {
                id: `LIC-${spec.id}-F`,
                coresTotal: 8,
                coresUsed: 0,
                url: null,
                licenseType: 'Failover' as const,
              },
              {
                id: `LIC-${spec.id}-S`,
                coresTotal: 4,
                coresUsed: 2,
                url: null,
                licenseType: 'Sandbox' as const,
              },
            ]
          : [
              {
                id: `LIC-${spec.id}`,
                coresTotal: null,
                coresUsed: 0,
                url: `https://licenses.demo.example/${spec.id}`,
                licenseType: 'Production' as const,
              },
            ],
      environments,
      members,
    };
  });

  return { users, subscriptions, renderEvents: renderEvents(prng, now, subscriptions) };
};

type RenderEventRow = {
  environmentGuid: string;
  kind: string;
  watermarked: boolean;
  at: string;
  count: number;
};

const renderEvents = (
  prng: Prng,
  now: Date,
  subscriptions: {
    status: string;
    endDate: string | null;
    isStudioEnabled: boolean;
    environments: { guid: string; technicalName: string; type: string }[];
  }[],
): RenderEventRow[] => {
  const events: RenderEventRow[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 13, now.getUTCDate());
  const scales = new Map(SUBSCRIPTIONS.flatMap((s) => s.environments.map((e) => [e.technicalName, e.scale])));
  for (const subscription of subscriptions) {
    const stop = subscription.endDate ? Date.parse(`${subscription.endDate}T00:00:00Z`) : today;
    for (const environment of subscription.environments) {
      const scale = scales.get(environment.technicalName) ?? 0.1;
      // Non-production environments render mostly watermarked proofs.
      const watermarkShare = environment.type === 'Production' ? 0.03 : 0.7;
      for (let day = first; day <= Math.min(stop, today); day += DAY_MS) {
        const weekday = new Date(day).getUTCDay();
        const weekly = weekday === 0 || weekday === 6 ? 0.25 : weekday === 1 ? 1.15 : 1;
        const growth = 0.7 + (0.5 * (day - first)) / (today - first || 1);
        const monthEnd = new Date(day + DAY_MS).getUTCDate() <= 3 ? 1.4 : 1;
        const noise = 0.8 + prng.next() * 0.4;
        const renders = Math.round(400 * scale * weekly * growth * monthEnd * noise);
        if (renders === 0) continue;
        // Renders happen during the working day; today's stop at `now`.
        const at = Math.min(day + (9 + prng.int(0, 8)) * 3_600_000, now.getTime());
        for (const { kind, share } of KINDS) {
          if (kind === 'Mp4' && !subscription.isStudioEnabled) continue;
          const total = Math.round(renders * share * (0.85 + prng.next() * 0.3));
          const watermarked = Math.round(total * watermarkShare);
          const stamp = new Date(at).toISOString();
          if (total - watermarked > 0) {
            events.push({
              environmentGuid: environment.guid,
              kind,
              watermarked: false,
              at: stamp,
              count: total - watermarked,
            });
          }
          if (watermarked > 0) {
            events.push({
              environmentGuid: environment.guid,
              kind,
              watermarked: true,
              at: stamp,
              count: watermarked,
            });
          }
        }
      }
    }
  }
  return events;
};
