import * as oauth from 'oauth4webapi';
import type { Session } from './session.ts';
import type { ConsoleSettings } from './settings.ts';

/** PKCE verifier, state and nonce between the redirect to the issuer and the way back (this tab only). */
const PENDING = 'platform-console.pending-sign-in';

type Pending = { codeVerifier: string; state: string; nonce: string; returnTo: string };

export const callbackPath = '/console/callback';
const redirectUri = () => `${window.location.origin}${callbackPath}`;

/**
 * oauth4webapi insists on https; a plain-http issuer is what platform-server was configured with (its development
 * issuer on a developer's machine), so the console follows that configuration.
 */
const transport = (settings: ConsoleSettings) => ({
  [oauth.allowInsecureRequests]: new URL(settings.issuer).protocol === 'http:',
});

const discover = async (settings: ConsoleSettings) => {
  const issuer = new URL(settings.issuer);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...transport(settings) }),
  );
};

/** Starts the authorization code flow with PKCE (S256): leaves the page for the issuer's sign-in. */
export const startSignIn = async (settings: ConsoleSettings, returnTo: string): Promise<void> => {
  const as = await discover(settings);
  if (!as.authorization_endpoint) throw new Error('The issuer has no authorization endpoint.');
  const pending: Pending = {
    codeVerifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    returnTo,
  };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: 'openid',
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  }).toString();
  window.location.assign(url.href);
};

const claimsOf = (token: string): Record<string, unknown> => {
  try {
    const payload = token.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
  } catch {
    return {};
  }
};

const rolesOf = (claims: Record<string, unknown>): string[] => {
  const roles = Array.isArray(claims.roles) ? claims.roles.filter((r) => typeof r === 'string') : [];
  const scope = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  return [...new Set([...roles, ...scope])].filter((role) => role.startsWith('platform:'));
};

/**
 * Completes the flow on the callback page: checks state, exchanges the code with the PKCE verifier, checks the ID
 * token's claims and nonce. Returns the session and where to go back to; the caller replaces the URL, so the code
 * never stays in the address bar or the history.
 */
export const completeSignIn = async (
  settings: ConsoleSettings,
  current: URL,
): Promise<{ session: Session; returnTo: string }> => {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as Pending | null;
  sessionStorage.removeItem(PENDING);
  if (!pending) throw new Error('This sign-in was not started in this tab; sign in again.');
  const as = await discover(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  const params = oauth.validateAuthResponse(as, client, current, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri(),
    pending.codeVerifier,
    transport(settings),
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  const idClaims = oauth.getValidatedIdTokenClaims(result);
  const accessClaims = claimsOf(result.access_token);
  const expiresIn = result.expires_in ?? 3600;
  return {
    session: {
      accessToken: result.access_token,
      expiresAt: Date.now() + expiresIn * 1000,
      userId: String(idClaims?.sub ?? accessClaims.sub ?? ''),
      roles: rolesOf(accessClaims),
    },
    returnTo: pending.returnTo,
  };
};
