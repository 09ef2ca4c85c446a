import type { ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import type { LocalsResponse } from '../rest/context.ts';

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
 * earlier for the same reason (two child loggers per request). The listener is made once, not per request
 * ('close' comes once, after the answer is complete or when the client went away first).
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
    const method = req.method ?? '';
    // The path as it arrived: routers rewrite req.url below their mount point (the front door never does).
    const url = req.originalUrl ?? req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const durationMs = Math.round((performance.now() - locals.startedAt) * 10) / 10;
    const userId = (locals.caller ?? locals.identity?.caller)?.userId;
    const methodText = escaped(method);
    const routeText = escaped(route);
    // A trace id is 32 lower-case hex digits (trace.ts): nothing to escape.
    destination.write(
      `{"level":${logger.levels.values[level]},"time":${Date.now()}${bindings}` +
        `,"req":{"method":"${methodText}","path":${JSON.stringify(path)}},"res":{"status":${status}}` +
        `,"durationMs":${durationMs},"route":"${routeText}"` +
        (userId ? `,"userId":"${escaped(userId)}"` : '') +
        `,"traceId":"${locals.traceId}"` +
        (batch ? `,"batch":{"index":${batch.index},"size":${batch.size}}` : '') +
        (res.writableFinished ? '' : ',"aborted":true') +
        `,"msg":"${methodText} ${routeText} ${status}"}\n`,
    );
  };
  function ended(this: LocalsResponse) {
    const locals = this.locals;
    const calls = locals.callLog;
    // Each call of a tRPC request (a batch holds several) has its own line, named by its procedure, in batch order.
    let logged = false;
    if (calls) {
      for (let index = 0; index < calls.length; index++) {
        const call = calls[index];
        if (!call) continue;
        line(this, `/trpc/${call.path}`, call.status, { index, size: calls.length });
        logged = true;
      }
    }
    if (!logged) line(this, locals.route ?? 'unmatched', this.statusCode);
  }
  return (res) => {
    res.on('close', ended);
  };
};
