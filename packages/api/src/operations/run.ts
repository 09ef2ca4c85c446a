import { type AppDeps, serviceContext } from '../rest/context.ts';
import type { Caller } from '../services/context.ts';
import type { AnyOperation } from './operation.ts';

/**
 * Calls an operation's service, the same for every transport. An operation that is not a GET may have written,
 * so once it settles (succeeded or not: a failure may follow a partial write elsewhere) the read cache is
 * dropped before the answer goes out, and the caller's next read sees the write.
 */
export const runOperation = async (
  deps: AppDeps,
  operation: AnyOperation,
  caller: Caller,
  traceId: string,
  input: unknown,
): Promise<unknown> => {
  const ctx = serviceContext(deps, caller, traceId);
  if (operation.method === 'GET' || operation.readsOnly) return operation.service(ctx, input);
  try {
    return await operation.service(ctx, input);
  } finally {
    deps.reads.invalidate();
  }
};
