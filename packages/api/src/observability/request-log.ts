import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { RequestLocals } from '../rest/context.ts';

/**
 * One JSON line per request, when it ends: method, path, path template (`route`), status, duration, user id and
 * traceId. Headers, query strings and bodies are never logged, so no token, code or secret can reach a line.
 * Written with pino directly: pino-http builds two child loggers per request, each serializing its bindings,
 * which cost about a sixth of a cached read's whole time in the API bench.
 */
export const requestLog =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    const start = performance.now();
    // The path as it arrived: routers rewrite req.url below their mount point.
    const path = req.url.split('?', 1)[0];
    let logged = false;
    const ended = () => {
      if (logged) return;
      logged = true;
      const locals = res.locals as RequestLocals;
      const status = res.statusCode;
      const route = locals.route ?? 'unmatched';
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      logger[level](
        {
          req: { method: req.method, path },
          res: { status },
          durationMs: Math.round((performance.now() - start) * 10) / 10,
          route,
          userId: locals.caller?.userId || undefined,
          traceId: locals.traceId,
          // The client went away before the answer was complete.
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        `${req.method} ${route} ${status}`,
      );
    };
    res.once('finish', ended);
    res.once('close', ended);
    next();
  };
