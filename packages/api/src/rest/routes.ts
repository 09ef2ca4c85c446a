import { Router } from 'express';
import { authorize } from '../operations/authorize.ts';
import { parseInput } from '../operations/input.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { runOperation } from '../operations/run.ts';
import type { HtmlPage } from '../services/authorization-code/redirect-page.ts';
import type { BinaryAnswer } from '../services/connector-runtime/run-methods.ts';
import type { AppDeps, RequestLocals } from './context.ts';
import { expressPath } from './paths.ts';
import { readJsonBody } from './read-body.ts';
import { sendJson } from './send-json.ts';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/**
 * The REST routes of the operation table. Checks run in the order of docs/errors.md: the token and its role from
 * the headers (before one byte of the body is read), then the body under the operation's limit, then the shape.
 */
export const restRoutes = (deps: AppDeps, operations: readonly AnyOperation[]): Router => {
  const router = Router();
  const idleMs = deps.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  for (const operation of operations) {
    const method = operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const limit = operation.bodyLimit ?? DEFAULT_BODY_LIMIT;
    router[method](expressPath(operation.path), async (req, res) => {
      const locals = res.locals as RequestLocals;
      locals.route = operation.path;
      const caller = authorize(operation, locals.identity);
      locals.caller = caller;
      const body = operation.body ? await readJsonBody(req, limit, idleMs) : undefined;
      const input = parseInput(operation, {
        params: req.params,
        query: req.query as Record<string, unknown>,
        body: body?.present ? body.value : undefined,
        hasBody: body?.present === true,
        bodyTextChecked: body?.present === true && !body.mayHoldMalformedText,
      });
      const output = await runOperation(deps, operation, caller, locals.traceId, input);
      if (operation.produces === 'text/html') {
        const page = output as HtmlPage;
        res.status(operation.status).set(page.headers).type('text/html').send(page.html);
        return;
      }
      if (operation.produces === 'application/octet-stream') {
        const answer = output as BinaryAnswer;
        res.status(operation.status).type(answer.contentType).send(Buffer.from(answer.bytes));
        return;
      }
      res.status(operation.status);
      if (operation.response === undefined || operation.status === 204) {
        res.end();
        return;
      }
      sendJson(res, output);
    });
  }
  return router;
};
