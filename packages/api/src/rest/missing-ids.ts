import type { RequestHandler } from 'express';
import type { AnyOperation } from '../operations/operation.ts';
import type { AppDeps } from './context.ts';
import { exactPathPattern } from './paths.ts';
import { operationHandler } from './routes.ts';

/**
 * An operation whose id is missing from its path (`/subscriptions//users/u`, `/users/`): where the specification
 * lists 400 for a missing or malformed id (the operation's `malformedParams`), the operation itself answers, its
 * checks naming the empty parameter as they name a malformed one (after the token and its role, as ever). The
 * router would otherwise see another path: no route at all (404), or with a trailing slash the list of the path
 * above it. Elsewhere a missing id names nothing: 404, as a malformed one.
 */
export const missingIds = (deps: AppDeps, operations: readonly AnyOperation[]): RequestHandler => {
  const routes = operations
    .filter((operation) => operation.malformedParams === 400)
    .map((operation) => ({
      method: operation.method,
      ...exactPathPattern(operation.path, true),
      handle: operationHandler(deps, operation),
    }));
  return (req, res, next) => {
    for (const route of routes) {
      if (route.method !== req.method) continue;
      const match = route.pattern.exec(req.path);
      if (!match?.slice(1).includes('')) continue;
      let params: Record<string, string>;
      try {
        params = Object.fromEntries(
          route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]),
        );
      } catch (error) {
        next(error);
        return;
      }
      route.handle(req, res, { params, query: req.query as Record<string, unknown> }).catch(next);
      return;
    }
    next();
  };
};
