import {
  type AuthDataOf,
  type AuthType,
  AuthType as AuthTypeSchema,
  type AuthUsage,
  authDataSchemas,
  joinSecrets,
} from '@platform/core';
import type { SecretBox } from '@platform/store';

/** One usage's authorization, with its secrets opened: lives in memory only, never logged or returned. */
export type AuthConfig = {
  [T in AuthType]: {
    connectorId: string;
    usage: AuthUsage;
    type: T;
    revision: number;
    data: AuthDataOf[T];
  };
}[AuthType];

export type OAuthConfig = Exclude<AuthConfig, { type: 'staticKey' }>;

export const isOAuth = (auth: AuthConfig): auth is OAuthConfig => auth.type !== 'staticKey';

export class StoredConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoredConfigurationError';
  }
}

export type ConnectorAuthRow = {
  connectorId: string;
  usage: string;
  type: string;
  revision: number;
  publicData: Record<string, unknown>;
  secretData: string;
};

/** Joins the public part and the opened secret part of a `connector_auth` row and re-validates it (defaults apply). */
export const decodeAuthConfig = (row: ConnectorAuthRow, secrets: SecretBox): AuthConfig => {
  const type = AuthTypeSchema.safeParse(row.type);
  if (!type.success) throw new StoredConfigurationError(`unknown authorization type ${row.type}`);
  let opened: Record<string, unknown>;
  try {
    opened = JSON.parse(secrets.open(row.secretData)) as Record<string, unknown>;
  } catch {
    throw new StoredConfigurationError('the stored secret part of the authorization could not be opened');
  }
  // core's joinSecrets is the inverse of the splitSecrets the environment API stores with.
  const data = joinSecrets(type.data, row.publicData, opened);
  const parsed = authDataSchemas[type.data].safeParse(data);
  if (!parsed.success) {
    // Only the paths: the values may be secrets.
    const paths = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new StoredConfigurationError(`the stored ${type.data} authorization is invalid at ${paths}`);
  }
  return {
    connectorId: row.connectorId,
    usage: row.usage as AuthUsage,
    type: type.data,
    revision: row.revision,
    data: parsed.data,
  } as AuthConfig;
};
