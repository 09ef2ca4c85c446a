import { ForbiddenError, UnauthenticatedError } from '@platform/core';
import { ANONYMOUS, type AppDeps, serviceContext } from '../rest/context.ts';
import type { Identity } from '../rest/identify.ts';
import { recordDenial } from '../services/audit/denied.ts';
import { type Caller, isOperator } from '../services/context.ts';
import type { AnyOperation } from './operation.ts';
import type { RequestFacts } from './run.ts';

/**
 * Token check of an operation, from the request's identity (its headers only): 401 without a valid token, 403
 * without the token role (docs/authentication.md). Cheap and synchronous: it runs before any body is read.
 */
export const authorize = (
  operation: Pick<AnyOperation, 'access' | 'operatorOnly'>,
  identity: Identity | undefined,
): Caller => {
  if (operation.access === 'public') return ANONYMOUS;
  const caller = identity?.caller;
  if (!caller) throw identity?.failure ?? new UnauthenticatedError('A bearer token is required.', false);
  if (!caller.roles.has(operation.access)) {
    throw new ForbiddenError(`This operation needs the token role '${operation.access}'.`);
  }
  if (operation.operatorOnly && !isOperator(caller)) {
    throw new ForbiddenError("This operation needs the token role 'platform:admin'.");
  }
  return caller;
};

/**
 * `authorize`, and a verified caller refused a write for want of its token role leaves an audit entry with the
 * outcome `denied` (docs/audit.md), named by the path parameters (the body is never read for it).
 */
export const authorizeAudited = async (
  deps: AppDeps,
  operation: AnyOperation,
  identity: Identity | undefined,
  request: RequestFacts,
  params: unknown,
): Promise<Caller> => {
  try {
    return authorize(operation, identity);
  } catch (error) {
    const caller = identity?.caller;
    if (error instanceof ForbiddenError && caller && operation.audit) {
      const ctx = serviceContext(deps, caller, request.traceId, request.clientAddress);
      await recordDenial(ctx, operation.audit, params);
    }
    throw error;
  }
};
