import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestLocals } from '../rest/context.ts';

/**
 * One JSON line per request: method, path template, status, duration, user id and traceId. Headers and query
 * strings are never logged, so no token, code or secret can reach a log line.
 */
export const requestLog = (logger: Logger) =>
  pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (_req: IncomingMessage, res: ServerResponse) =>
      (res as unknown as { locals: RequestLocals }).locals?.traceId ?? '',
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: (req, res) => `${req.method} ${routeOf(res)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeOf(res)} ${res.statusCode}`,
    customAttributeKeys: { responseTime: 'durationMs' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: (err: { type?: string; message?: string }) => ({ type: err.type }),
    },
    // Added to the finished line only: pino-http also applies customProps when the request starts (before the
    // route and caller are known), so with customProps every line carried `route` and `traceId` twice.
    customSuccessObject: (_req, res, value) => ({ ...value, ...propsOf(res) }),
    customErrorObject: (_req, res, _error, value) => ({ ...value, ...propsOf(res) }),
  });

const propsOf = (res: ServerResponse) => {
  const locals = (res as unknown as { locals: RequestLocals }).locals;
  return {
    route: locals?.route ?? 'unmatched',
    userId: locals?.caller?.userId || undefined,
    traceId: locals?.traceId,
  };
};

const routeOf = (res: ServerResponse) =>
  (res as unknown as { locals: RequestLocals }).locals?.route ?? 'unmatched';
