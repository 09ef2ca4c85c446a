import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isGuid,
  malformedTextErrors,
  NotFoundError,
  proxiedResponseHeaders,
  ValidationError,
} from '@platform/core';
import type { Express } from 'express';
import { authorize } from '../operations/authorize.ts';
import type { Caller } from '../services/context.ts';
import {
  type EnvironmentScope,
  readEnvironment,
  readEnvironmentNow,
} from '../services/environment-access.ts';
import { closeIfBodyUnread } from './close-unread.ts';
import { type AppDeps, localsOf, serviceContext } from './context.ts';
import { expressPath } from './paths.ts';
import { sendProblem } from './problem-response.ts';

export type ProxyHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  ctx: { environmentId: number; connectorId: string; caller: Caller; traceId: string },
) => Promise<void>;

export const PROXY_PATH = '/grafx/api/v1/environment/{environment}/connectors/{connectorId}/proxy';

/** What the route asks of a caller, made once rather than per request. */
const PROXY_ACCESS = { access: 'platform:read' } as const;

/**
 * The proxy route's answer to one request, its path parameters already decoded; both front door and router use it.
 * Not an async function: when the environment is in memory the handler's own promise is handed back, so a warm
 * proxied request suspends no frame here and waits for no extra turn. The handler answers its own failures (the
 * target's, the connector's): what is answered here is what comes before it.
 */
export const proxyRoute = (deps: AppDeps, handle: ProxyHandler) => {
  const refuse = (req: IncomingMessage, res: ServerResponse, traceId: string, error: unknown): void => {
    // Set here rather than up front: the handler writes them with the rest of its answer, and a header set before
    // `writeHead` puts Node's header writing on its slower path for every proxied request.
    for (const name in proxiedResponseHeaders) {
      res.setHeader(name, proxiedResponseHeaders[name as keyof typeof proxiedResponseHeaders]);
    }
    // Nothing of the body was read yet when authorization fails, and nothing of it ever will be.
    closeIfBodyUnread(req, res);
    sendProblem(res, traceId, error);
  };
  const proceed = (
    req: IncomingMessage,
    res: ServerResponse,
    scope: EnvironmentScope,
    connectorId: string,
    caller: Caller,
    traceId: string,
  ): Promise<void> => {
    if (!isGuid(connectorId)) {
      throw new NotFoundError(`Connector '${connectorId}' was not found in this environment.`);
    }
    return handle(req, res, { environmentId: scope.environment.id, connectorId, caller, traceId });
  };
  return (
    req: IncomingMessage,
    res: ServerResponse,
    environment: string,
    connectorId: string,
  ): Promise<void> => {
    const locals = localsOf(res);
    locals.route = PROXY_PATH;
    const { traceId } = locals;
    try {
      const caller = authorize(PROXY_ACCESS, locals.identity);
      locals.caller = caller;
      const malformed = malformedTextErrors({ environment, connectorId });
      if (Object.keys(malformed).length > 0) {
        throw new ValidationError('U+0000 and unpaired surrogates are not accepted in the path.', malformed);
      }
      const scope = readEnvironmentNow(deps.reads, caller, environment);
      if (scope) return proceed(req, res, scope, connectorId, caller, traceId);
      return readEnvironment(serviceContext(deps, caller, traceId, locals.clientAddress), environment)
        .then((found) => proceed(req, res, found, connectorId, caller, traceId))
        .catch((error: unknown) => refuse(req, res, traceId, error));
    } catch (error) {
      refuse(req, res, traceId, error);
      return Promise.resolve();
    }
  };
};

/**
 * The connector proxy route, every method (docs/connector-proxy.md): the caller needs `platform:read` and visibility of the
 * environment; the handler then streams the request (so this is mounted before any body parser). The front door
 * answers its plain spellings itself; the router the rest (another letter case, a trailing slash).
 */
export const mountProxy = (app: Express, deps: AppDeps, handle: ProxyHandler): void => {
  const route = proxyRoute(deps, handle);
  app.all(expressPath(PROXY_PATH), (req, res) =>
    route(req, res, req.params.environment as string, req.params.connectorId as string),
  );
};
