import type { JWTPayload } from 'jose';
import type { Caller } from '../services/context.ts';

/** Token roles come from a `roles` array and/or a space-separated `scope` (docs/authentication.md). */
export const callerFromClaims = (claims: JWTPayload): Caller | null => {
  if (typeof claims.sub !== 'string' || claims.sub === '') return null;
  const roles = new Set<string>();
  if (Array.isArray(claims.roles)) {
    for (const role of claims.roles) if (typeof role === 'string') roles.add(role);
  }
  if (typeof claims.scope === 'string') {
    for (const role of claims.scope.split(' ')) if (role !== '') roles.add(role);
  }
  return { userId: claims.sub, roles };
};
