import type { RequestHandler } from 'express';
import { authorize } from '../operations/authorize.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { closeIfBodyUnread } from '../rest/close-unread.ts';
import type { RequestLocals } from '../rest/context.ts';
import { readJsonBody } from '../rest/read-body.ts';
import { bodyReading } from '../rest/routes.ts';
import { trpcProcedures } from './batch.ts';

/**
 * Runs before tRPC's own handler, in the order of docs/errors.md: the token and role of every procedure a
 * mutation names are judged from the headers first. When one would be refused, the body is never read (each
 * call then answers its 401 or 403 and the connection closes); otherwise the body is read here under `limit`,
 * with the same decoding and incremental parsing as REST, and handed to tRPC already parsed.
 */
export const admitTrpc = (
  operations: readonly (AnyOperation & { id: string })[],
  limit: number,
  idleMs: number,
): RequestHandler => {
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  const refused = (id: string, locals: RequestLocals) => {
    const operation = byId.get(id);
    if (!operation) return false;
    try {
      authorize(operation, locals.identity);
      return false;
    } catch {
      return true;
    }
  };
  return async (req, res, next) => {
    const locals = res.locals as RequestLocals;
    locals.route = '/trpc';
    if (req.method !== 'POST') {
      next();
      return;
    }
    if (trpcProcedures(req.path).some((id) => refused(id, locals))) {
      closeIfBodyUnread(req, res);
      req.body = {};
      next();
      return;
    }
    const body = await readJsonBody(req, { ...bodyReading(undefined, locals, idleMs), limit });
    req.body = body.present ? body.value : {};
    locals.bodyTextChecked = body.present && !body.mayHoldMalformedText;
    if (!body.present) closeIfBodyUnread(req, res);
    next();
  };
};
