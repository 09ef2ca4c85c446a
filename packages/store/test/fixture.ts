import { randomUUID } from 'node:crypto';

type Environment = {
  id: number;
  guid: string;
  name: string;
  technicalName?: string;
  type: string;
  storage?: Record<string, number>;
};
type Event = { environmentGuid: string; kind: string; watermarked?: boolean; at: string; count?: number };
type Member = {
  userId: string;
  subscriptionRoles?: string[];
  environmentRoles: Record<string, string[]>;
  membershipType?: string;
};

/** A small valid data file: two users, one subscription with three environments, members and render events. */
export const smallFile = () => {
  const env = [randomUUID(), randomUUID(), randomUUID()] as const;
  return {
    users: [
      {
        id: 'auth0|alice',
        email: 'alice@example.com',
        firstName: 'Alice',
        lastName: 'Ng',
        lastSeen: 1763600000,
      },
      { id: 'auth0|bob', email: 'bob@example.com', status: 'Pending' },
    ],
    subscriptions: [
      {
        id: 101,
        guid: randomUUID(),
        name: 'acme',
        displayName: 'Acme',
        clientId: randomUUID(),
        subscriptionType: 'Saas',
        pricebookVersion: '2025.1',
        subscriptionTier: 'Enterprise',
        externalIdpDomains: ['Acme.Example', 'acme.example', 'bücher.example'],
        licenses: [{ id: 'LIC-1', coresTotal: 8, coresUsed: 2, licenseType: 'Production' }],
        environments: <Environment[]>[
          { id: 1, guid: env[0], name: 'Prod', technicalName: 'acme-prod', type: 'Production' },
          { id: 2, guid: env[1], name: 'Sandbox', technicalName: 'acme-sandbox', type: 'Sandbox' },
          { id: 3, guid: env[2], name: 'Dev', type: 'Development', storage: { assets: 10, other: 5 } },
        ],
        members: <Member[]>[
          {
            userId: 'auth0|alice',
            subscriptionRoles: ['SubscriptionOwner'],
            environmentRoles: { [env[0]]: ['EnvironmentAdmin'] },
          },
          {
            userId: 'auth0|bob',
            environmentRoles: { [env[1]]: ['TemplateDesigner'] },
            membershipType: 'Federated',
          },
        ],
      },
    ],
    renderEvents: <Event[]>[
      { environmentGuid: env[0], kind: 'Pdf', at: '2026-01-01T10:00:00Z', count: 5 },
      { environmentGuid: env[0], kind: 'Pdf', at: '2026-01-01T23:30:00-02:00', count: 2 },
      { environmentGuid: env[1], kind: 'Image', watermarked: true, at: '2026-01-02T00:00:00Z' },
    ],
  };
};
