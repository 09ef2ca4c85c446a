import { ForbiddenError } from '@platform/core';
import type { TokenVerifier } from '../auth/verifier.ts';
import { ANONYMOUS } from '../rest/context.ts';
import type { Caller } from '../services/context.ts';
import type { Access } from './operation.ts';

/** Token check of an operation: 401 without a valid token, 403 without the role (docs/authentication.md). */
export const authorize = async (
  verifier: TokenVerifier,
  access: Access,
  authorization: string | undefined,
): Promise<Caller> => {
  if (access === 'public') return ANONYMOUS;
  const caller = await verifier.verify(authorization);
  if (!caller.roles.has(access)) {
    throw new ForbiddenError(`This operation needs the token role '${access}'.`);
  }
  return caller;
};
