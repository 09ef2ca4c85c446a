import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { answerError } from './answer-error.ts';
import type { LocalsResponse, RequestLocals } from './context.ts';
import { exactPathPattern } from './paths.ts';
import type { RouteInput } from './routes.ts';
import { traceIdOf } from './trace.ts';

/**
 * A route the front door answers without the router: its path template matched exactly (this letter case, no
 * trailing slash), for one method or every method.
 */
export type FrontRoute = {
  pattern: RegExp;
  names: readonly string[];
  /** Undefined: every method. */
  method: string | undefined;
  /** Undefined: the router answers it (a page, bytes), and no later route may take its requests either. */
  run: ((req: IncomingMessage, res: ServerResponse, input: RouteInput) => Promise<void>) | undefined;
};

export const frontRoute = (path: string, method: string | undefined, run: FrontRoute['run']): FrontRoute => ({
  ...exactPathPattern(path),
  method,
  run,
});

/** Path parameters decoded as the router decodes them; undefined when one is not valid percent-encoding. */
const decodeParams = (
  names: readonly string[],
  match: RegExpExecArray,
): Record<string, string> | undefined => {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const raw = match[i + 1] ?? '';
    try {
      params[names[i] as string] = raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch {
      return undefined;
    }
  }
  return params;
};

export type FrontDoorOptions = {
  log: Logger;
  /** The client's address, through trusted load balancers (client-address.ts). */
  clientAddress: (req: IncomingMessage) => string | undefined;
  /**
   * What runs when each response closes, in this order (the metrics, the request log, the server's own count of
   * responses in flight): one 'close' listener per request calls them all, where a listener each cost an
   * `addListener`, a listener array and an emit apiece on every request.
   */
  closed: readonly ((res: ServerResponse) => void)[];
  /** Sets `locals.identity`, then calls `next`. */
  identify: (req: IncomingMessage, locals: RequestLocals, next: () => void) => void;
  /** The rate limit and the body budget: the very instances the router runs, so that both count alike. */
  admit: readonly RequestHandler[];
  routes: readonly FrontRoute[];
  parseQuery: (text: string) => Record<string, unknown>;
  /** Everything else: the Express application. */
  router: (req: IncomingMessage, res: ServerResponse) => void;
};

/**
 * Where every request enters (docs/configuration.md, "Processes": the front door). It starts the request's record (trace id,
 * metrics, log line, caller) and answers the hot routes (the connector proxy and the operations answering JSON or
 * bytes) itself, with the handlers and the admission checks the router has; every other request, and every other
 * spelling of those routes, goes on to the router. The router's per-request work (prototype swaps, a walk over
 * every layer) was a third of a warm proxied call's CPU.
 */
export const createFrontDoor = (options: FrontDoorOptions): RequestListener => {
  const { log, clientAddress, closed, identify, admit, routes, parseQuery, router } = options;
  // Made once: every response gets this very function as its listener.
  function close(this: ServerResponse) {
    for (const end of closed) end(this);
  }

  const find = (method: string, path: string) => {
    for (const route of routes) {
      if (route.method !== undefined && route.method !== method) continue;
      const match = route.pattern.exec(path);
      if (match) return { route, match };
    }
    return undefined;
  };

  const enter = (req: IncomingMessage, res: ServerResponse, locals: RequestLocals) => {
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const found = find(req.method ?? '', mark === -1 ? url : url.slice(0, mark));
    const run = found?.route.run;
    const params = found && run && decodeParams(found.route.names, found.match);
    if (!run || !params) {
      router(req, res);
      return;
    }
    const fail = (error: unknown) => answerError(log, req, res, locals.traceId, error);
    // One continuation for the whole chain of checks, not one per check.
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined) {
        fail(error);
        return;
      }
      const check = admit[index++];
      if (check) {
        check(req as never, res as never, next);
        return;
      }
      const query = mark === -1 ? {} : parseQuery(url.slice(mark + 1));
      run(req, res, { params, query }).catch(fail);
    };
    try {
      next();
    } catch (error) {
      fail(error);
    }
  };

  return (req, res) => {
    const locals: RequestLocals = {
      startedAt: performance.now(),
      traceId: traceIdOf(req.headers.traceparent as string | undefined),
      clientAddress: clientAddress(req),
    };
    // The router keeps what it finds in `res.locals`.
    (res as LocalsResponse).locals = locals;
    res.on('close', close);
    identify(req, locals, () => enter(req, res, locals));
  };
};
