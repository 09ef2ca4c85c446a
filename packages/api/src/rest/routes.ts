import express, { Router } from 'express';
import { authorize } from '../operations/authorize.ts';
import { parseInput } from '../operations/input.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { runOperation } from '../operations/run.ts';
import type { HtmlPage } from '../services/authorization-code/redirect-page.ts';
import type { AppDeps, RequestLocals } from './context.ts';
import { expressPath } from './paths.ts';
import { sendJson } from './send-json.ts';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The REST routes of the operation table: authorize, validate, call the service, answer. */
export const restRoutes = (deps: AppDeps, operations: readonly AnyOperation[]): Router => {
  const router = Router();
  for (const operation of operations) {
    const method = operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    // Each operation parses its own body, with its own size limit: most take at most 1 MiB.
    const parseBody = express.json({
      limit: operation.bodyLimit ?? DEFAULT_BODY_LIMIT,
      strict: false,
      type: ['application/json', 'application/*+json'],
    });
    router[method](expressPath(operation.path), parseBody, async (req, res) => {
      const locals = res.locals as RequestLocals;
      locals.route = operation.path;
      const caller = await authorize(deps.verifier, operation.access, req.headers.authorization);
      locals.caller = caller;
      const input = parseInput(operation, {
        params: req.params,
        query: req.query as Record<string, unknown>,
        body: req.body,
        hasBody: req.body !== undefined,
      });
      const output = await runOperation(deps, operation, caller, locals.traceId, input);
      if (operation.produces === 'text/html') {
        const page = output as HtmlPage;
        res.status(operation.status).set(page.headers).type('text/html').send(page.html);
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
