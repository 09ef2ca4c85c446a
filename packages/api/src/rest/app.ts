import { NotFoundError, ServiceError, ValidationError } from '@platform/core';
import { loggableError } from '@platform/store';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { httpMetrics } from '../observability/metrics.ts';
import { requestLog } from '../observability/request-log.ts';
import type { AnyOperation } from '../operations/operation.ts';
import type { AppDeps, RequestLocals } from './context.ts';
import { pathMatcher } from './paths.ts';
import { classify, sendProblem } from './problem-response.ts';
import { rateLimit } from './rate-limit.ts';
import { restRoutes } from './routes.ts';
import { traceIdOf } from './trace.ts';

export type AppOptions = {
  deps: AppDeps;
  operations: readonly AnyOperation[];
  metrics: Registry;
  rateLimitPerSecond: number;
  /** Routes that must see the raw request stream (the connector proxy): mounted before the JSON parser. */
  mountRaw?: (app: Express) => void;
  /** Routes after the operation table (tRPC, documents, discovery). */
  mountExtra?: (app: Express) => void;
};

export const createApp = (options: AppOptions): Express => {
  const { deps, operations } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');

  app.use(((req, res, next) => {
    const locals = res.locals as RequestLocals;
    locals.startedAt = performance.now();
    locals.traceId = traceIdOf(req.headers.traceparent as string | undefined);
    next();
  }) satisfies RequestHandler);
  app.use(httpMetrics(options.metrics));
  app.use(requestLog(deps.log));
  app.use(rateLimit(options.rateLimitPerSecond));
  options.mountRaw?.(app);
  app.use(restRoutes(deps, operations));
  options.mountExtra?.(app);

  const known = operations.map((op) => ({ matcher: pathMatcher(op.path), method: op.method }));
  app.use(((req, res, next) => {
    const allowed = known.filter((k) => k.matcher.test(req.path)).map((k) => k.method);
    if (allowed.length === 0) {
      next(new NotFoundError(`No endpoint at ${req.method} ${req.path}.`));
      return;
    }
    res.set('Allow', [...new Set(allowed)].join(', '));
    next(
      new ServiceError(
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed here; use ${allowed.join(' or ')}.`,
      ),
    );
  }) satisfies RequestHandler);

  app.use(((error, _req, res, _next) => {
    const locals = res.locals as RequestLocals;
    const mapped = mapBodyError(error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const outcome = sendProblem(res, locals.traceId, mapped);
    if (
      outcome.status >= 500 &&
      classify(mapped).status === outcome.status &&
      !(mapped instanceof ServiceError)
    ) {
      deps.log.error({ traceId: locals.traceId, err: loggableError(mapped) }, 'unexpected error');
    }
  }) satisfies ErrorRequestHandler);
  return app;
};

/** body-parser's errors carry a `type`; turn them into the statuses of docs/errors.md. */
const mapBodyError = (error: unknown): unknown => {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') {
    const limit = (error as { limit?: unknown }).limit;
    return new ServiceError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than the ${limit} bytes this endpoint accepts.`,
    );
  }
  if (type === 'entity.parse.failed') {
    return new ValidationError('The request body is not valid JSON.', { body: ['not valid JSON'] });
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ValidationError('The request body must be UTF-8 JSON.', { body: ['unsupported encoding'] });
  }
  if (type === 'request.aborted') return new ValidationError('The request was aborted.');
  // The router decodes path parameters with decodeURIComponent: a malformed escape (`%c0%ae`) is the caller's.
  if (error instanceof URIError) {
    return new ValidationError('The request path is not valid percent-encoded UTF-8.', {
      path: ['malformed percent-encoding'],
    });
  }
  return error;
};
