import { isWellFormedText } from '@platform/core';
import type { JWTPayload } from 'jose';
import type { Caller } from '../services/context.ts';

/**
 * Token roles come from a `roles` array and/or a space-separated `scope` (docs/authentication.md). A subject that
 * is empty or not well-formed text (U+0000, an unpaired surrogate) names nobody: null, and the token is refused.
 */
export const callerFromClaims = (claims: JWTPayload): Caller | null => {
  if (typeof claims.sub !== 'string' || claims.sub === '' || !isWellFormedText(claims.sub)) return null;
  const roles = new Set<string>();
  if (Array.isArray(claims.roles)) {
    for (const role of claims.roles) if (typeof role === 'string') roles.add(role);
  }
  if (typeof claims.scope === 'string') {
    for (const role of claims.scope.split(' ')) if (role !== '') roles.add(role);
  }
  return { userId: claims.sub, issuer: claims.iss, roles };
};
