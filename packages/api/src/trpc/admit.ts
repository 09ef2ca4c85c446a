import { ServiceError, ValidationError } from '@platform/core';
import type { RequestHandler } from 'express';
import { authorize } from '../operations/authorize.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { announcesBody, closeIfBodyUnread } from '../rest/close-unread.ts';
import type { RequestLocals } from '../rest/context.ts';
import { undecodable } from '../rest/parse-query.ts';
import { readJsonBody } from '../rest/read-body.ts';
import { bodyReading } from '../rest/routes.ts';
import { trpcProcedures } from './batch.ts';

/**
 * A query's `input`, which tRPC reads from the URL itself: escapes that are not UTF-8 (`%ff`, an encoded lone
 * surrogate), which it would turn into U+FFFD, and text that is not JSON, which it would answer with the parser's own
 * words, are refused here by name, as any REST parameter is.
 */
const malformedInput = (input: unknown): ValidationError | undefined => {
  if (undecodable(input)) {
    return new ValidationError('The query parameter input is not valid percent-encoded UTF-8.', {
      input: ['not valid percent-encoded UTF-8'],
    });
  }
  if (typeof input !== 'string') return undefined;
  try {
    JSON.parse(input);
    return undefined;
  } catch {
    return new ValidationError('The query parameter input is not valid JSON.', { input: ['not valid JSON'] });
  }
};

/**
 * Runs before tRPC's own handler, in the order of docs/errors.md: the token and role of every procedure a
 * mutation names are judged from the headers first. When one would be refused, the body is never read (each
 * call then answers its 401 or 403 and the connection closes); otherwise the body is read here under the limits of
 * the procedures it names (each operation's own, as REST reads its body; `limit` for one without; a batch the sum
 * of its calls'), with the same decoding and incremental parsing as REST, and handed to tRPC already parsed.
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
    // tRPC takes queries by GET and mutations by POST. Any other method is refused here, where the answer carries
    // the traceId and errorCode (tRPC's own refusal of it comes before its context exists, without them).
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.set('Allow', 'GET, POST');
      closeIfBodyUnread(req, res);
      next(new ServiceError('METHOD_NOT_ALLOWED', `${req.method} is not a tRPC method; use GET or POST.`));
      return;
    }
    if (req.method !== 'POST') {
      // tRPC parses a query's input before any procedure judges the token: a malformed one is 400 either way.
      next(malformedInput(req.query.input));
      return;
    }
    // A procedure that does not exist is a path that does not exist (404), answered, as a refused token or role,
    // before any byte of the body is read.
    if (trpcProcedures(req.path).some((id) => !byId.has(id) || refused(id, locals))) {
      closeIfBodyUnread(req, res);
      req.body = {};
      // The body is never read: tRPC sees an empty JSON one, whatever type was sent, and answers each call its
      // 404, 401 or 403 (not a 415 for a body nobody looks at).
      req.headers['content-type'] = 'application/json';
      next();
      return;
    }
    // An empty body has no type to judge (fetch sends Content-Length: 0 and no type for a POST without one).
    if (announcesBody(req) && req.is('application/json') === false) {
      // tRPC would refuse it too, but before its context exists: without the traceId and errorCode.
      closeIfBodyUnread(req, res);
      next(
        new ServiceError(
          'UNSUPPORTED_MEDIA_TYPE',
          'A tRPC mutation takes a JSON body: send Content-Type: application/json.',
        ),
      );
      return;
    }
    const reading = bodyReading(undefined, locals, idleMs);
    const named = trpcProcedures(req.path).map((id) => byId.get(id));
    const body = await readJsonBody(req, {
      ...reading,
      limit: named.reduce((sum, operation) => sum + (operation?.bodyLimit ?? limit), 0),
      json: {
        ...reading.json,
        maxValues: named.reduce(
          (sum, operation) => sum + (operation?.bodyValueLimit ?? reading.json.maxValues),
          0,
        ),
      },
    });
    req.body = body.present ? body.value : {};
    locals.bodyTextChecked = body.present && !body.mayHoldMalformedText;
    if (!body.present) {
      closeIfBodyUnread(req, res);
      // No body and so no type: tRPC would refuse the missing type before its context exists (without the traceId
      // and errorCode); it answers the call instead (a query by POST: 405; a mutation without input: 400).
      req.headers['content-type'] = 'application/json';
    }
    next();
  };
};
