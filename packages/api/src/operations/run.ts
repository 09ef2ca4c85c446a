import { ForbiddenError } from '@platform/core';
import { type AppDeps, serviceContext } from '../rest/context.ts';
import { recordDenial } from '../services/audit/denied.ts';
import type { Caller } from '../services/context.ts';
import type { AnyOperation } from './operation.ts';

/** What the transports know of a request besides its caller and input. */
export type RequestFacts = { readonly traceId: string; readonly clientAddress: string | undefined };

/**
 * Calls an operation's service, the same for every transport. An operation that is not a GET may have written,
 * so once it settles (succeeded or not: a failure may follow a partial write elsewhere) the read cache is
 * dropped before the answer goes out, and the caller's next read sees the write. A write the service refuses with
 * 403 leaves an audit entry with the outcome `denied`.
 */
export const runOperation = async (
  deps: AppDeps,
  operation: AnyOperation,
  caller: Caller,
  request: RequestFacts,
  input: unknown,
): Promise<unknown> => {
  const ctx = serviceContext(deps, caller, request.traceId, request.clientAddress);
  if (operation.method === 'GET' || operation.readsOnly) return operation.service(ctx, input);
  try {
    return await operation.service(ctx, input);
  } catch (error) {
    if (error instanceof ForbiddenError && operation.audit) await recordDenial(ctx, operation.audit, input);
    throw error;
  } finally {
    deps.reads.invalidate();
  }
};
