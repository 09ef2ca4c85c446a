import type { RequestListener, ServerResponse } from 'node:http';
import { NotFoundError, ServiceError, ValidationError } from '@platform/core';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { createDisabledCheck } from '../auth/user-status.ts';
import { httpMetrics } from '../observability/metrics.ts';
import { requestLog } from '../observability/request-log.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { countTrpcCalls } from '../trpc/batch.ts';
import { trpcErrorEnvelope } from '../trpc/error-envelope.ts';
import { answerError } from './answer-error.ts';
import { bodyBudget } from './body-budget.ts';
import { clientAddressOf } from './client-address.ts';
import type { AppDeps, RequestLocals } from './context.ts';
import { createFrontDoor, frontRoute } from './front-door.ts';
import { identify } from './identify.ts';
import { missingIds } from './missing-ids.ts';
import { parseQuery } from './parse-query.ts';
import { pathMatcher } from './paths.ts';
import { mountProxy, PROXY_PATH, type ProxyHandler, proxyRoute } from './proxy-route.ts';
import { rateLimit } from './rate-limit.ts';
import { operationHandler, restRoutes } from './routes.ts';

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
  /** The connector proxy: its route sees the raw request stream, so nothing before it reads a body. */
  proxy?: ProxyHandler;
  /** Routes after the operation table (tRPC, documents, discovery). */
  mountExtra?: (app: Express) => void;
  /** Paths `mountExtra` serves with GET alone: another method there is a 405 with `Allow`, as on an operation's path. */
  extraGetPaths?: readonly string[];
  /** Called when each response closes, after its metrics and its log line (the server's count of answers in flight). */
  responseClosed?: (res: ServerResponse) => void;
};

/**
 * The whole HTTP application: the front door (front-door.ts), which answers the hot routes itself, in front of the
 * Express router, which answers the rest.
 */
export const createApp = (options: AppOptions): RequestListener => {
  const { deps, operations } = options;
  const limit = rateLimit(options.rateLimitPerSecond, deps.verifier.issuer, options.replicas);
  const budget = bodyBudget(options.rateLimitPerSecond > 0, deps.verifier.issuer);
  const app = expressApp(options, limit, budget);
  const proxy = options.proxy && proxyRoute(deps, options.proxy);
  // Pages and forms stay the router's (Express's own answers, the multipart reader); their exact paths are still
  // claimed, so that no later front route takes them.
  const frontHandler = (operation: AnyOperation) =>
    operation.produces === 'text/html' || operation.multipart ? undefined : operationHandler(deps, operation);
  return createFrontDoor({
    log: deps.log,
    clientAddress: clientAddressOf(options.trustedProxies),
    closed: [
      httpMetrics(options.metrics),
      requestLog(deps.log),
      ...(options.responseClosed ? [options.responseClosed] : []),
    ],
    identify: identify(deps.verifier, createDisabledCheck(deps.database, deps.reads)),
    admit: [limit, budget],
    routes: [
      ...(proxy
        ? [
            frontRoute(PROXY_PATH, undefined, (req, res, { params }) =>
              proxy(req, res, params.environment as string, params.connectorId as string),
            ),
          ]
        : []),
      ...operations.map((operation) => frontRoute(operation.path, operation.method, frontHandler(operation))),
    ],
    parseQuery,
    router: app,
  });
};

const expressApp = (options: AppOptions, limit: RequestHandler, budget: RequestHandler): Express => {
  const { deps, operations } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', options.trustedProxies?.length ? [...options.trustedProxies] : false);
  app.set('query parser', parseQuery);

  app.use('/trpc', countTrpcCalls);
  app.use(limit);
  app.use(budget);
  if (options.proxy) mountProxy(app, deps, options.proxy);
  const known = [
    ...operations.map((op) => ({ matcher: pathMatcher(op.path), method: op.method, path: op.path })),
    ...(options.extraGetPaths ?? []).map((path) => ({ matcher: pathMatcher(path), method: 'GET', path })),
  ];
  // A path the router cannot decode is named by its template's parameters, the proxy route's included.
  const templates = options.proxy
    ? [...known, { matcher: pathMatcher(PROXY_PATH), path: PROXY_PATH }]
    : known;
  const unrouted: RequestHandler = (req, res, next) => {
    const allowed = known.filter((k) => k.matcher.test(req.path)).map((k) => k.method);
    if (allowed.length === 0) {
      next(new NotFoundError(`No endpoint at ${req.method} ${req.path}.`));
      return;
    }
    // A GET route answers HEAD too (Express): Allow lists every method the path takes (RFC 9110 §10.2.1).
    const methods = allowed.includes('GET')
      ? ['GET', 'HEAD', ...allowed.filter((m) => m !== 'GET')]
      : allowed;
    res.set('Allow', [...new Set(methods)].join(', '));
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
  app.use(missingIds(deps, operations));
  app.use(restRoutes(deps, operations));
  options.mountExtra?.(app);
  app.use(unrouted);

  app.use(((error, req, res, _next) => {
    const locals = res.locals as RequestLocals;
    const mapped = error instanceof URIError ? undecodablePath(req.path, templates) : error;
    const procedure = /^\/trpc\/([^,?/]+)$/.exec(req.path)?.[1];
    answerError(
      deps.log,
      req,
      res,
      locals.traceId,
      mapped,
      procedure && req.query.batch === undefined
        ? (problemStatus) => trpcErrorEnvelope(procedure, problemStatus, locals.traceId)
        : undefined,
    );
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
