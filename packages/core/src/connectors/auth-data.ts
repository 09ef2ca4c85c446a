import { z } from 'zod';
import type { AuthType } from './auth-types.ts';
import { HeaderName, HeaderValue } from './header-field.ts';

const httpUrl = () => z.url({ protocol: /^https?$/, error: 'an absolute http(s) URL' });
const secret = () => z.string().min(1).max(16_384);
const text = () => z.string().min(1).max(2048);

export const BodyFormat = z.enum(['applicationJson', 'formUrlEncoded']);
export type BodyFormat = z.infer<typeof BodyFormat>;
export const TokenEndpointAuthMethod = z.enum(['client_secret_basic', 'client_secret_post']);
export type TokenEndpointAuthMethod = z.infer<typeof TokenEndpointAuthMethod>;

/** See docs/connector-auth.md. Every schema is strict: an unknown field is an error that names it. */
export const StaticKeyData = z
  .strictObject({ key: HeaderName, value: HeaderValue.min(1) })
  .meta({ id: 'StaticKeyData' });
export type StaticKeyData = z.infer<typeof StaticKeyData>;

export const ClientCredentialsData = z
  .strictObject({
    clientId: text(),
    clientSecret: secret(),
    scope: z.string().max(2048).optional(),
    tokenEndpoint: httpUrl(),
  })
  .meta({ id: 'ClientCredentialsData' });
export type ClientCredentialsData = z.infer<typeof ClientCredentialsData>;

export const AuthorizationCodeData = z
  .strictObject({
    clientId: text(),
    clientSecret: secret(),
    scope: z.string().max(2048).optional(),
    authorizationServerMetadata: z.strictObject({
      authorization_endpoint: httpUrl(),
      token_endpoint: httpUrl(),
      token_endpoint_auth_methods_supported: z.array(TokenEndpointAuthMethod).min(1),
    }),
    specCustomization: z
      .strictObject({
        codeParameterName: z
          .string()
          .regex(/^[A-Za-z0-9._~-]{1,64}$/, 'a query parameter name')
          .default('code'),
        requestContentType: BodyFormat.default('formUrlEncoded'),
      })
      .default({ codeParameterName: 'code', requestContentType: 'formUrlEncoded' }),
  })
  .meta({ id: 'AuthorizationCodeData' });
export type AuthorizationCodeData = z.infer<typeof AuthorizationCodeData>;

export const ResourceOwnerPasswordData = z
  .strictObject({
    clientId: text(),
    clientSecret: secret(),
    scope: z.string().max(2048).optional(),
    username: text(),
    password: secret(),
    bodyFormat: BodyFormat.default('formUrlEncoded'),
    tokenEndpoint: httpUrl(),
    /** The first entry chooses how the client authenticates at the token endpoint; absent: client_secret_basic. */
    authorizationServerMetadata: z
      .strictObject({ token_endpoint_auth_methods_supported: z.array(TokenEndpointAuthMethod).min(1) })
      .optional(),
  })
  .meta({ id: 'ResourceOwnerPasswordData' });
export type ResourceOwnerPasswordData = z.infer<typeof ResourceOwnerPasswordData>;

/** A claim or body parameter value: a claim keeps its JSON type, a form parameter is sent as its string form. */
const jwtValue = () => z.union([z.string(), z.number(), z.boolean()]);

/** docs/environment-api.md decides the JWT bearer fields the specification leaves to the connector. */
export const JwtBearerData = z
  .strictObject({
    tokenEndpoint: httpUrl(),
    signatureConfig: z.strictObject({
      algorithm: z.literal('RS256'),
      privateKey: secret().regex(/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a PEM private key'),
    }),
    jwtPayload: z.record(z.string().min(1), jwtValue()),
    jwtTokenParamName: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{1,64}$/, 'a body parameter name')
      // The grant's own parameter: the token request would carry the grant type there and no assertion.
      .refine(
        (name) => name !== 'grant_type',
        'grant_type is the grant type itself, not a place for the assertion',
      )
      .default('assertion'),
    requestBodyParams: z.record(z.string().min(1), jwtValue()).optional(),
  })
  .meta({ id: 'JwtBearerData' });
export type JwtBearerData = z.infer<typeof JwtBearerData>;

export const authDataSchemas = {
  staticKey: StaticKeyData,
  oAuth2ClientCredentials: ClientCredentialsData,
  oAuth2AuthorizationCode: AuthorizationCodeData,
  oAuth2ResourceOwnerPassword: ResourceOwnerPasswordData,
  oAuth2JwtBearer: JwtBearerData,
} as const satisfies Record<AuthType, z.ZodType>;

export type AuthDataOf = { [T in AuthType]: z.infer<(typeof authDataSchemas)[T]> };
export type AuthData = AuthDataOf[AuthType];

/** Paths (dot-separated) of the fields of each type that are secret: encrypted at rest, never returned, masked in output. */
export const secretPaths: Record<AuthType, readonly string[]> = {
  staticKey: ['value'],
  oAuth2ClientCredentials: ['clientSecret'],
  oAuth2AuthorizationCode: ['clientSecret'],
  oAuth2ResourceOwnerPassword: ['clientSecret', 'password'],
  oAuth2JwtBearer: ['signatureConfig.privateKey'],
};
