import type { ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import type { LocalsResponse } from '../rest/context.ts';
import { byRouteStatusMethod } from './by-route-status-method.ts';

/** Distinct texts kept escaped; past this, the cache starts again (user ids are as many as the callers). */
const ESCAPED_MAX = 4096;

/**
 * One JSON line per request, when it ends: method, path, path template (`route`), status, duration, user id and
 * traceId. Headers, query strings and bodies are never logged, so no token, code or secret can reach a line.
 *
 * The line has one fixed shape, so it is written here as pino would write it (level, time, the logger's bindings,
 * the fields, `msg`) and handed to the logger's own destination, with the logger's level deciding as ever. pino's
 * generic path walks and copies every field object, runs the redaction (nothing to find here: no field is a secret)
 * and allocates for each; on the proxy route that was a tenth of the whole request's CPU. pino-http was dropped
 * earlier for the same reason (two child loggers per request). The returned function runs when a response closes
 * (front-door.ts): once, after the answer is complete or when the client went away first.
 */
export const requestLog = (logger: Logger): ((res: ServerResponse) => void) => {
  // The method, route template and user id of a line recur from request to request: each is escaped for JSON
  // once rather than per line.
  const escapedTexts = new Map<string, string>();
  const escaped = (text: string): string => {
    let json = escapedTexts.get(text);
    if (json === undefined) {
      json = JSON.stringify(text).slice(1, -1);
      if (escapedTexts.size >= ESCAPED_MAX) escapedTexts.clear();
      escapedTexts.set(text, json);
    }
    return json;
  };
  const destination = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? '';
  if (!destination) throw new Error('the request log needs a pino logger with a destination');

  // The line's fixed end (method, status, route, message) for each route template, status and method, escaped and
  // joined once: a line is then a dozen pieces rather than two dozen, each piece a string V8 allocates per request.
  const tailOf = byRouteStatusMethod((route, status, method) => {
    const methodText = escaped(method);
    const routeText = escaped(route);
    return (
      `,"method":"${methodText}"},"res":{"status":${status}},"route":"${routeText}"` +
      `,"msg":"${methodText} ${routeText} ${status}"}\n`
    );
  }, ESCAPED_MAX);

  const line = (
    res: LocalsResponse,
    route: string,
    status: number,
    batch?: { index: number; size: number },
  ) => {
    const level: Level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const req = res.req as LocalsResponse['req'] & { originalUrl?: string };
    const locals = res.locals;
    // The path as it arrived: routers rewrite req.url below their mount point (the front door never does).
    const url = req.originalUrl ?? req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const durationMs = Math.round((performance.now() - locals.startedAt) * 10) / 10;
    const userId = (locals.caller ?? locals.identity?.caller)?.userId;
    // A trace id is 32 lower-case hex digits (trace.ts): nothing to escape.
    destination.write(
      `{"level":${logger.levels.values[level]},"time":${Date.now()}${bindings},"traceId":"${locals.traceId}"` +
        `,"durationMs":${durationMs}` +
        (userId ? `,"userId":"${escaped(userId)}"` : '') +
        (batch ? `,"batch":{"index":${batch.index},"size":${batch.size}}` : '') +
        (res.writableFinished ? '' : ',"aborted":true') +
        `,"req":{"path":${JSON.stringify(path)}` +
        tailOf(route, status, req.method ?? ''),
    );
  };
  return (res) => {
    const answer = res as LocalsResponse;
    const locals = answer.locals;
    const calls = locals.callLog;
    // Each call of a tRPC request (a batch holds several) has its own line, named by its procedure, in batch order.
    let logged = false;
    if (calls) {
      for (let index = 0; index < calls.length; index++) {
        const call = calls[index];
        if (!call) continue;
        line(answer, `/trpc/${call.path}`, call.status, { index, size: calls.length });
        logged = true;
      }
    }
    if (!logged) line(answer, locals.route ?? 'unmatched', answer.statusCode);
  };
};
