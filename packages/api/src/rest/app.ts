import { parse } from 'node:querystring';
import { NotFoundError, ServiceError, ValidationError } from '@platform/core';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { httpMetrics } from '../observability/metrics.ts';
import { requestLog } from '../observability/request-log.ts';
import { logUnexpectedError } from '../observability/unexpected-error.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { countTrpcCalls } from '../trpc/batch.ts';
import { trpcErrorEnvelope } from '../trpc/error-envelope.ts';
import { bodyBudget } from './body-budget.ts';
import { closeIfBodyUnread } from './close-unread.ts';
import type { AppDeps, RequestLocals } from './context.ts';
import { identify } from './identify.ts';
import { pathMatcher } from './paths.ts';
import { sendProblem } from './problem-response.ts';
import { rateLimit } from './rate-limit.ts';
import { restRoutes } from './routes.ts';
import { traceIdOf } from './trace.ts';

export type AppOptions = {
  deps: AppDeps;
  operations: readonly AnyOperation[];
  metrics: Registry;
  rateLimitPerSecond: number;
  /** Live server replicas sharing the rate limit (replica-count.ts); 1 when absent. */
  replicas?: () => number;
  /**
   * Load balancers' addresses and CIDR ranges (TRUSTED_PROXIES): a request from one of them is counted by the client
   * address its X-Forwarded-For names (rate limit, logs). None by default: every request by its socket's address.
   */
  trustedProxies?: readonly string[];
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
  app.set('trust proxy', options.trustedProxies?.length ? [...options.trustedProxies] : false);
  app.set('query parser', parseQuery);

  app.use(((req, res, next) => {
    const locals = res.locals as RequestLocals;
    locals.startedAt = performance.now();
    locals.traceId = traceIdOf(req.headers.traceparent as string | undefined);
    next();
  }) satisfies RequestHandler);
  app.use(httpMetrics(options.metrics));
  app.use(requestLog(deps.log));
  app.use(identify(deps.verifier));
  app.use('/trpc', countTrpcCalls);
  app.use(rateLimit(options.rateLimitPerSecond, deps.verifier.issuer, options.replicas));
  app.use(bodyBudget(options.rateLimitPerSecond > 0, deps.verifier.issuer));
  options.mountRaw?.(app);
  const known = operations.map((op) => ({ matcher: pathMatcher(op.path), method: op.method, path: op.path }));
  const unrouted: RequestHandler = (req, res, next) => {
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
  };
  // No operation takes OPTIONS (the API serves no CORS preflight): 405 with Allow, as any other method it does not
  // take, rather than the router's automatic 200 that answers anyone without a token. tRPC's admission refuses it
  // on /trpc the same way.
  app.use(((req, res, next) =>
    req.method === 'OPTIONS' && known.some((k) => k.matcher.test(req.path))
      ? unrouted(req, res, next)
      : next()) satisfies RequestHandler);
  app.use(restRoutes(deps, operations));
  options.mountExtra?.(app);
  app.use(unrouted);

  app.use(((error, req, res, _next) => {
    const locals = res.locals as RequestLocals;
    const mapped = error instanceof URIError ? undecodablePath(req.path, known) : error;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    closeIfBodyUnread(req, res);
    const procedure = /^\/trpc\/([^,?/]+)$/.exec(req.path)?.[1];
    sendProblem(
      res,
      locals.traceId,
      mapped,
      procedure && req.query.batch === undefined
        ? (problemStatus) => trpcErrorEnvelope(procedure, problemStatus, locals.traceId)
        : undefined,
    );
    logUnexpectedError(deps.log, locals.traceId, mapped);
  }) satisfies ErrorRequestHandler);
  return app;
};

/**
 * The router decodes path parameters with decodeURIComponent: a malformed escape (`%c0%ae`, an encoded surrogate
 * `%ed%a0%80`) is the caller's, a 400 naming the parameter of the matching path template (else `path`).
 */
const undecodablePath = (path: string, known: readonly { matcher: RegExp; path: string }[]) => {
  const template = known.find((k) => k.matcher.test(path))?.path.split('/') ?? [];
  const names = path.split('/').flatMap((segment, i) => {
    const name = /^\{(.+)\}$/.exec(template[i] ?? '')?.[1];
    return name && !decodes(segment) ? [name] : [];
  });
  const errors = Object.fromEntries(
    (names.length > 0 ? names : ['path']).map((name) => [name, ['not valid percent-encoded UTF-8']]),
  );
  return new ValidationError('The request path is not valid percent-encoded UTF-8.', errors);
};

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

/** Stands for a query value whose percent-encoding is not UTF-8: the text check names it (docs/errors.md). */
const UNDECODABLE = '\udfff';

/**
 * Query strings as Node's querystring reads them, except that a value whose escapes are not UTF-8 (`%ff`,
 * `%ed%a0%80`, an encoded lone surrogate) is refused by name rather than silently turned into U+FFFD.
 */
const parseQuery = (text: string) =>
  parse(text, '&', '=', {
    decodeURIComponent: (value: string) => {
      try {
        return decodeURIComponent(value);
      } catch {
        return UNDECODABLE;
      }
    },
  });
