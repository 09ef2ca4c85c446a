import type { AuthKind } from '../../api/connector-auth.ts';

/** One form field of an authorization type; `path` is where it goes in the body (dots for nesting). */
export type AuthField = {
  path: string;
  label: string;
  /** Written, never shown again: not pre-filled, not echoed. */
  secret?: boolean;
  optional?: boolean;
  input?: 'text' | 'url' | 'textarea' | 'json';
  choices?: string[];
};

export type AuthTypeName =
  | 'staticKey'
  | 'oAuth2ClientCredentials'
  | 'oAuth2AuthorizationCode'
  | 'oAuth2ResourceOwnerPassword'
  | 'oAuth2JwtBearer';

const client: AuthField[] = [
  { path: 'clientId', label: 'Client id' },
  { path: 'clientSecret', label: 'Client secret', secret: true },
  { path: 'scope', label: 'Scope', optional: true },
];

/** The fields of each type (docs/connector-auth.md), and the REST kind that sets it. */
export const AUTH_TYPES: Record<AuthTypeName, { label: string; kind: AuthKind; fields: AuthField[] }> = {
  staticKey: {
    label: 'Static key (a header)',
    kind: 'static',
    fields: [
      { path: 'key', label: 'Header name' },
      { path: 'value', label: 'Header value', secret: true },
    ],
  },
  oAuth2ClientCredentials: {
    label: 'OAuth 2.0 client credentials',
    kind: 'oauth-client-credentials',
    fields: [...client, { path: 'tokenEndpoint', label: 'Token endpoint', input: 'url' }],
  },
  oAuth2AuthorizationCode: {
    label: 'OAuth 2.0 authorization code',
    kind: 'oauth-authorization-code',
    fields: [
      ...client,
      {
        path: 'authorizationServerMetadata.authorization_endpoint',
        label: 'Authorization endpoint',
        input: 'url',
      },
      { path: 'authorizationServerMetadata.token_endpoint', label: 'Token endpoint', input: 'url' },
      {
        path: 'authorizationServerMetadata.token_endpoint_auth_methods_supported',
        label: 'Client authentication at the token endpoint',
        choices: ['client_secret_basic', 'client_secret_post'],
      },
    ],
  },
  oAuth2ResourceOwnerPassword: {
    label: 'OAuth 2.0 resource owner password',
    kind: 'oauth-resource-owner-password',
    fields: [
      ...client,
      { path: 'username', label: 'Username' },
      { path: 'password', label: 'Password', secret: true },
      { path: 'bodyFormat', label: 'Token request body', choices: ['formUrlEncoded', 'applicationJson'] },
      { path: 'tokenEndpoint', label: 'Token endpoint', input: 'url' },
    ],
  },
  oAuth2JwtBearer: {
    label: 'OAuth 2.0 JWT bearer',
    kind: 'oauth-jwt-bearer',
    fields: [
      { path: 'tokenEndpoint', label: 'Token endpoint', input: 'url' },
      {
        path: 'signatureConfig.privateKey',
        label: 'RS256 private key (PEM)',
        secret: true,
        input: 'textarea',
      },
      { path: 'jwtPayload', label: 'JWT payload (JSON object)', input: 'json' },
      { path: 'jwtTokenParamName', label: 'Assertion parameter name', optional: true },
      {
        path: 'requestBodyParams',
        label: 'Extra body parameters (JSON object)',
        optional: true,
        input: 'json',
      },
    ],
  },
};

/**
 * The request body of a form's values: nested by path, JSON fields parsed, empty optional fields left out; the
 * authorization code's auth method is a list of one, and the JWT algorithm is the only one supported.
 */
export const bodyOf = (
  type: AuthTypeName,
  usage: string,
  name: string,
  values: Record<string, string>,
): { body: Record<string, unknown> } | { errors: Record<string, string> } => {
  const body: Record<string, unknown> = { usage, ...(name.trim() ? { name: name.trim() } : {}) };
  const errors: Record<string, string> = {};
  for (const field of AUTH_TYPES[type].fields) {
    const raw = values[field.path] ?? '';
    if (raw === '' && field.optional) continue;
    let value: unknown = raw;
    if (field.input === 'json') {
      try {
        value = JSON.parse(raw || 'null');
      } catch {
        errors[field.path] = 'not valid JSON';
        continue;
      }
    }
    if (field.path.endsWith('token_endpoint_auth_methods_supported')) value = [raw];
    const keys = field.path.split('.');
    let target = body;
    for (const key of keys.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    target[keys[keys.length - 1] ?? field.path] = value;
  }
  if (type === 'oAuth2JwtBearer') {
    body.signatureConfig ??= {};
    (body.signatureConfig as Record<string, unknown>).algorithm = 'RS256';
  }
  return Object.keys(errors).length > 0 ? { errors } : { body };
};
