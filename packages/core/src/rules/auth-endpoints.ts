import type { AuthType } from '../connectors/auth-types.ts';
import { ValidationError } from '../errors.ts';

/** The string at a dot path of a value not yet known to be valid; undefined for anything else. */
const stringAt = (value: unknown, path: readonly string[]): string | undefined => {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
};

/** The endpoint fields of each type's data, by dot path (docs/connector-auth.md). */
const ENDPOINT_FIELDS: Record<AuthType, readonly string[]> = {
  staticKey: [],
  oAuth2ClientCredentials: ['tokenEndpoint'],
  oAuth2ResourceOwnerPassword: ['tokenEndpoint'],
  oAuth2JwtBearer: ['tokenEndpoint'],
  oAuth2AuthorizationCode: [
    'authorizationServerMetadata.authorization_endpoint',
    'authorizationServerMetadata.token_endpoint',
  ],
};

/**
 * Token and authorization endpoints must be `https://` URLs: credentials and codes travel to them. Plain `http://`
 * is accepted only where private networks are (PROXY_ALLOW_PRIVATE_NETWORKS: tests, local development).
 * Throws a ValidationError naming every offending field.
 */
export const assertHttpsEndpoints = (type: AuthType, data: unknown, allowHttp: boolean): void => {
  const errors: Record<string, string[]> = {};
  for (const field of ENDPOINT_FIELDS[type]) {
    const url = stringAt(data, field.split('.'));
    // A value that is no URL, or no string, is the schema's to name (parseAuthData): the data may not be parsed yet.
    if (url === undefined || !URL.canParse(url)) continue;
    const protocol = new URL(url).protocol;
    if (protocol === 'https:' || (allowHttp && protocol === 'http:')) continue;
    errors[field] = ['must be an https:// URL'];
  }
  const fields = Object.keys(errors);
  if (fields.length > 0) {
    throw new ValidationError(
      `${fields.join(' and ')} must be ${fields.length === 1 ? 'an https:// URL' : 'https:// URLs'}.`,
      errors,
    );
  }
};
