import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AuthDataOf,
  type AuthType,
  type AuthUsage,
  authDataSchemas,
  splitSecrets,
} from '@platform/core';
import { createSecretBox, type Database, type SecretBox, schema } from '@platform/store';
import { and, eq } from 'drizzle-orm';

export const environmentId = 1;
export const environmentTechnicalName = 'acme-prod';

export const newSecrets = (): SecretBox => createSecretBox(randomBytes(32).toString('base64'));

export const seedEnvironment = async (database: Database): Promise<void> => {
  await database.db.insert(schema.subscriptions).values({
    id: 1,
    guid: randomUUID(),
    name: 'acme',
    displayName: 'Acme',
    clientId: randomUUID(),
    status: 'Active',
    subscriptionType: 'Saas',
    isPlatformPricebook: true,
    pricebookVersion: '2025.1',
    isWhitelabeled: false,
    subscriptionTier: 'Enterprise',
    maxTemplates: 10,
    averageRendersPeriodDays: 30,
    overdueInvoices: false,
    isPublisherEnabled: true,
    isStudioEnabled: true,
  });
  await database.db.insert(schema.environments).values({
    id: environmentId,
    guid: randomUUID(),
    subscriptionId: 1,
    name: 'Acme Production',
    technicalName: environmentTechnicalName,
    type: 'Production',
  });
};

export type ConnectorSeed = {
  id?: string;
  allowedDomains: string[];
  forwardedHeaders?: boolean;
  enabled?: boolean;
};

export const insertConnector = async (database: Database, seed: ConnectorSeed): Promise<string> => {
  const id = seed.id ?? randomUUID();
  const now = new Date();
  await database.db.insert(schema.connectors).values({
    id,
    environmentId,
    name: 'test connector',
    version: '1.0.0',
    type: 'data',
    script: 'export default {}',
    allowedDomains: seed.allowedDomains,
    forwardedHeaders: seed.forwardedHeaders ?? false,
    supportedAuth: Object.keys(authDataSchemas),
    enabled: seed.enabled ?? true,
    createdAt: now,
    updatedAt: now,
  });
  return id;
};

let revision = 1_000;

/** Writes a connector_auth row the way the environment API does: secrets split out and sealed as JSON. */
export const setAuth = async <T extends AuthType>(
  database: Database,
  secrets: SecretBox,
  connectorId: string,
  usage: AuthUsage,
  type: T,
  input: unknown,
): Promise<number> => {
  const data = authDataSchemas[type].parse(input) as AuthDataOf[T];
  const { publicData, secretData } = splitSecrets(type, data);
  const t = schema.connectorAuth;
  revision += 1;
  await database.db.delete(t).where(and(eq(t.connectorId, connectorId), eq(t.usage, usage)));
  await database.db.insert(t).values({
    id: randomUUID(),
    connectorId,
    usage,
    type,
    name: type,
    revision,
    publicData,
    secretData: secrets.seal(JSON.stringify(secretData)),
    updatedAt: new Date(),
  });
  return revision;
};

export const setSharedHeaders = async (
  database: Database,
  secrets: SecretBox,
  connectorId: string,
  headers: Record<string, string>,
): Promise<void> => {
  await database.db.insert(schema.connectorSharedHeaders).values({
    connectorId,
    headers: secrets.seal(JSON.stringify(headers)),
    updatedAt: new Date(),
  });
};
