import { ServiceError } from '@platform/core';

/**
 * The authorization code type has no token for this platform user (never logged in, logged out, or the
 * refresh token was refused). 401 with `X-GRAFX-UNAUTHORIZED`, like a refused upstream call, so the
 * connector runtime knows to start the login.
 */
export class AuthorizationRequiredError extends ServiceError {
  constructor(connectorId: string) {
    super(
      'UNAUTHENTICATED',
      `No OAuth 2.0 authorization code login for connector ${connectorId} and this user; log in with POST .../connectors/${connectorId}/auth/oauth-authorization-code/login.`,
      { headers: { 'X-GRAFX-UNAUTHORIZED': `oAuth2AuthorizationCode, ${connectorId}` } },
    );
    this.name = 'AuthorizationRequiredError';
  }
}
