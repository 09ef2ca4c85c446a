import type { TokenEndpointAuthMethod } from '../connectors/auth-data.ts';

/**
 * How a client authenticates at a token endpoint (docs/connector-auth.md): the first entry of
 * `token_endpoint_auth_methods_supported` chooses; without the list, `client_secret_basic` (RFC 6749 §2.3.1).
 */
export const tokenEndpointAuthMethodOf = (
  supported: readonly TokenEndpointAuthMethod[] | undefined,
): TokenEndpointAuthMethod => supported?.[0] ?? 'client_secret_basic';
