import type { AuthDataOf } from '../connectors/auth-data.ts';
import type { AuthType } from '../connectors/auth-types.ts';
import { ValidationError } from '../errors.ts';

/** The endpoint fields of each type's data, by dot path (docs/connector-auth.md). */
const endpointFields = (type: AuthType, data: AuthDataOf[AuthType]): [string, string][] => {
  switch (type) {
    case 'staticKey':
      return [];
    case 'oAuth2AuthorizationCode': {
      const metadata = (data as AuthDataOf['oAuth2AuthorizationCode']).authorizationServerMetadata;
      return [
        ['authorizationServerMetadata.authorization_endpoint', metadata.authorization_endpoint],
        ['authorizationServerMetadata.token_endpoint', metadata.token_endpoint],
      ];
    }
    default:
      return [['tokenEndpoint', (data as { tokenEndpoint: string }).tokenEndpoint]];
  }
};

/**
 * Token and authorization endpoints must be `https://` URLs: credentials and codes travel to them. Plain `http://`
 * is accepted only where private networks are (PROXY_ALLOW_PRIVATE_NETWORKS: tests, local development).
 * Throws a ValidationError naming every offending field.
 */
export const assertHttpsEndpoints = <T extends AuthType>(
  type: T,
  data: AuthDataOf[T],
  allowHttp: boolean,
): void => {
  const errors: Record<string, string[]> = {};
  for (const [field, url] of endpointFields(type, data)) {
    const protocol = URL.canParse(url) ? new URL(url).protocol : '';
    if (protocol === 'https:' || (allowHttp && protocol === 'http:')) continue;
    errors[field] = ['must be an https:// URL'];
  }
  const fields = Object.keys(errors);
  if (fields.length > 0) {
    throw new ValidationError(`${fields.join(' and ')} must be https:// URLs.`, errors);
  }
};
