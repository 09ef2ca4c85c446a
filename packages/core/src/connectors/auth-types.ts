import { z } from 'zod';

/** See docs/connector-auth.md: the `-at` values. */
export const AuthType = z
  .enum([
    'staticKey',
    'oAuth2ClientCredentials',
    'oAuth2AuthorizationCode',
    'oAuth2ResourceOwnerPassword',
    'oAuth2JwtBearer',
  ])
  .meta({ id: 'AuthType' });
export type AuthType = z.infer<typeof AuthType>;

/** See docs/connector-cli.md: the `-au` values. */
export const AuthUsage = z.enum(['browser', 'server']).meta({ id: 'AuthUsage' });
export type AuthUsage = z.infer<typeof AuthUsage>;

/** The REST path segment of each type (docs/environment-api.md). */
export const AuthKind = z
  .enum([
    'static',
    'oauth-client-credentials',
    'oauth-authorization-code',
    'oauth-resource-owner-password',
    'oauth-jwt-bearer',
  ])
  .meta({ id: 'AuthKind' });
export type AuthKind = z.infer<typeof AuthKind>;

export const kindOfType: Record<AuthType, AuthKind> = {
  staticKey: 'static',
  oAuth2ClientCredentials: 'oauth-client-credentials',
  oAuth2AuthorizationCode: 'oauth-authorization-code',
  oAuth2ResourceOwnerPassword: 'oauth-resource-owner-password',
  oAuth2JwtBearer: 'oauth-jwt-bearer',
};

export const typeOfKind = Object.fromEntries(
  Object.entries(kindOfType).map(([type, kind]) => [kind, type]),
) as Record<AuthKind, AuthType>;

/** See docs/connector-auth.md: which usages each type supports. */
export const usagesOfType: Record<AuthType, readonly AuthUsage[]> = {
  staticKey: ['browser', 'server'],
  oAuth2ClientCredentials: ['browser', 'server'],
  oAuth2AuthorizationCode: ['browser'],
  oAuth2ResourceOwnerPassword: ['browser', 'server'],
  oAuth2JwtBearer: ['browser', 'server'],
};

export const supportsUsage = (type: AuthType, usage: AuthUsage): boolean =>
  usagesOfType[type].includes(usage);

/** The `grant_type` each OAuth 2.0 type sends; fixed by the type (docs/connector-auth.md rule 6). */
export const grantTypeOf = {
  oAuth2ClientCredentials: 'client_credentials',
  oAuth2AuthorizationCode: 'authorization_code',
  oAuth2ResourceOwnerPassword: 'password',
  oAuth2JwtBearer: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
} as const satisfies Partial<Record<AuthType, string>>;
