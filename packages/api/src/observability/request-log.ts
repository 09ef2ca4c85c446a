import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { RequestLocals } from '../rest/context.ts';

/**
 * One JSON line per request, when it ends: method, path, path template (`route`), status, duration, user id and
 * traceId. Headers, query strings and bodies are never logged, so no token, code or secret can reach a line.
 * Written with pino directly: pino-http builds two child loggers per request, each serializing its bindings,
 * which cost about a sixth of a cached read's whole time in the API bench. The listener is made once, not per
 * request ('close' comes once, after the answer is complete or when the client went away first).
 */
export const requestLog = (logger: Logger): RequestHandler => {
  function ended(this: Response) {
    const { req } = this;
    const locals = this.locals as RequestLocals;
    const status = this.statusCode;
    const route = locals.route ?? 'unmatched';
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    logger[level](
      {
        // The path as it arrived: routers rewrite req.url below their mount point.
        req: { method: req.method, path: req.originalUrl.split('?', 1)[0] },
        res: { status },
        durationMs: Math.round((performance.now() - locals.startedAt) * 10) / 10,
        route,
        userId: locals.caller?.userId || undefined,
        traceId: locals.traceId,
        ...(this.writableFinished ? {} : { aborted: true }),
      },
      `${req.method} ${route} ${status}`,
    );
  }
  return (_req, res, next) => {
    res.once('close', ended);
    next();
  };
};
