import { isWellFormedText, UnauthenticatedError } from '@platform/core';
import { createRemoteJWKSet, jwtVerify } from 'jose';

export type VerifiedCaller = { userId: string; roles: ReadonlySet<string> };

/** docs/authentication.md: RS256/ES256/EdDSA JWTs from the issuer's JWKS; roles from `roles` and/or `scope`. */
export const createBearerVerifier = async (issuer: string, audience: string) => {
  const discoveryUrl = new URL(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
  const response = await fetch(discoveryUrl).catch((error: unknown) => {
    throw new Error(
      `AUTH_ISSUER: OpenID discovery at ${discoveryUrl} could not be reached (${(error as { cause?: { code?: string } }).cause?.code ?? 'network error'})`,
    );
  });
  if (!response.ok)
    throw new Error(`AUTH_ISSUER: OpenID discovery at ${discoveryUrl} answered HTTP ${response.status}`);
  const discovery = (await response.json()) as { issuer?: string; jwks_uri?: string };
  if (!discovery.jwks_uri)
    throw new Error(`AUTH_ISSUER: OpenID discovery at ${discoveryUrl} has no jwks_uri`);
  const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
  const expectedIssuer = discovery.issuer ?? issuer;

  return async (authorization: string | undefined): Promise<VerifiedCaller> => {
    const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!token) throw new UnauthenticatedError('A bearer token is required.', authorization !== undefined);
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: expectedIssuer,
        audience,
        algorithms: ['RS256', 'ES256', 'EdDSA'],
        // A token without exp would be accepted forever.
        requiredClaims: ['exp'],
      });
      // U+0000 or an unpaired surrogate names no user (and no database column takes it): refused as the server does.
      if (typeof payload.sub !== 'string' || payload.sub === '' || !isWellFormedText(payload.sub))
        throw new Error('no valid sub');
      const roles = new Set<string>();
      if (Array.isArray(payload.roles))
        for (const r of payload.roles) if (typeof r === 'string') roles.add(r);
      if (typeof payload.scope === 'string') for (const s of payload.scope.split(' ')) if (s) roles.add(s);
      return { userId: payload.sub, roles };
    } catch {
      throw new UnauthenticatedError('The bearer token is invalid or expired.', true);
    }
  };
};
