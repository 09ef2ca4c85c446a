import { ValidationError } from '@platform/core';
import type { RequestHandler } from 'express';
import type { RequestLocals } from '../rest/context.ts';

/** The most calls one tRPC request may batch (docs/errors.md). */
export const MAX_BATCH_CALLS = 50;

/** The procedures a tRPC request names: `/trpc/tags.create,tags.list?batch=1` names two. */
export const trpcProcedures = (path: string): string[] => path.replace(/^\//, '').split(',');

/**
 * Mounted at `/trpc` before the rate limit: every call of a batch counts as a request there, and a batch of more
 * than MAX_BATCH_CALLS is refused whole before anything runs.
 */
export const countTrpcCalls: RequestHandler = (req, res, next) => {
  const calls = trpcProcedures(req.path).length;
  if (calls > MAX_BATCH_CALLS) {
    next(
      new ValidationError(
        `A tRPC batch holds at most ${MAX_BATCH_CALLS} calls; this one has ${calls}. Split it.`,
        { batch: [`at most ${MAX_BATCH_CALLS} calls`] },
      ),
    );
    return;
  }
  (res.locals as RequestLocals).calls = calls;
  next();
};
