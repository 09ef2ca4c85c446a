import type { IncomingMessage, ServerResponse } from 'node:http';
import { proxiedResponseHeaders, TEMPLATE_CONTENT_MAX_DEPTH } from '@platform/core';
import { type Response, Router } from 'express';
import { authorizeAudited } from '../operations/authorize.ts';
import { parseInput } from '../operations/input.ts';
import type { AnyOperation, MultipartForm } from '../operations/operation.ts';
import { runOperation } from '../operations/run.ts';
import type { HtmlPage } from '../services/authorization-code/redirect-page.ts';
import type { BinaryAnswer } from '../services/connector-runtime/run-methods.ts';
import { type AppDeps, localsOf, type RequestLocals } from './context.ts';
import { expressPath } from './paths.ts';
import { type ReadBodyOptions, readJsonBody } from './read-body.ts';
import { readMultipartBody } from './read-multipart.ts';
import { sendJson } from './send-json.ts';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_BODY_VALUES = 100_000;

/** How a request body of `operation` is read: its byte, value and depth limits, charged to the caller's budget. */
export const bodyReading = (
  operation: AnyOperation | undefined,
  locals: RequestLocals,
  idleMs: number,
): ReadBodyOptions => ({
  limit: operation?.bodyLimit ?? DEFAULT_BODY_LIMIT,
  idleMs,
  json: { maxValues: operation?.bodyValueLimit ?? DEFAULT_BODY_VALUES, maxDepth: TEMPLATE_CONTENT_MAX_DEPTH },
  charge: operation?.operatorOnly ? undefined : locals.chargeBody,
});
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/** Path parameters and query of one request, as the router reads them (decoded; `parseQuery` of app.ts). */
export type RouteInput = { params: Record<string, string>; query: Record<string, unknown> };

/**
 * One operation's REST handler. Checks run in the order of docs/errors.md: the token and its role from the headers
 * (before one byte of the body is read), then the body under the operation's limit, then the shape. The router and
 * the front door (front-door.ts) both call it.
 */
export const operationHandler = (deps: AppDeps, operation: AnyOperation) => {
  const idleMs = deps.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return async (req: IncomingMessage, res: ServerResponse, { params, query }: RouteInput): Promise<void> => {
    const locals = localsOf(res);
    locals.route = operation.path;
    const request = { traceId: locals.traceId, clientAddress: locals.clientAddress };
    const caller = await authorizeAudited(deps, operation, locals.identity, request, params);
    locals.caller = caller;
    const input = operation.multipart
      ? await multipartInput(req, operation, operation.multipart, { params, query }, idleMs)
      : await jsonInput(req, operation, { params, query }, bodyReading(operation, locals, idleMs));
    const output = await runOperation(deps, operation, caller, request, input);
    // Pages are the router's alone (the front door takes the other operations): Express's own answers.
    if (operation.produces === 'text/html') {
      const page = output as HtmlPage;
      (res as Response).status(operation.status).set(page.headers).type('text/html').send(page.html);
      return;
    }
    if (operation.produces === 'application/octet-stream') {
      sendBytes(res, operation.status, output as BinaryAnswer);
      return;
    }
    res.statusCode = operation.status;
    if (operation.response === undefined || operation.status === 204) {
      res.end();
      return;
    }
    sendJson(res, output);
  };
};

/**
 * An upstream's bytes under the platform's origin, as through the proxy: never a page that runs (an SVG's script),
 * never read as another type than the upstream's. The type is set as the upstream sent it (a text type gets no
 * charset the bytes may not be in), and the bytes go out as they are, not copied.
 */
const sendBytes = (res: ServerResponse, status: number, answer: BinaryAnswer): void => {
  const { bytes } = answer;
  res.statusCode = status;
  res.setHeader('Content-Type', answer.contentType);
  for (const [name, value] of Object.entries(proxiedResponseHeaders)) res.setHeader(name, value);
  res.setHeader('Content-Length', bytes.byteLength);
  res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
};

const jsonInput = async (
  req: IncomingMessage,
  operation: AnyOperation,
  { params, query }: RouteInput,
  reading: ReadBodyOptions,
) => {
  const body = operation.body ? await readJsonBody(req, reading) : undefined;
  return parseInput(operation, {
    params,
    query,
    body: body?.present ? body.value : undefined,
    hasBody: body?.present === true,
    bodyEmpty: body?.present === false && body.empty,
    bodyTextChecked: body?.present === true && !body.mayHoldMalformedText,
  });
};

/** A form's text parts are checked as a JSON body would be (its `fields` schema); its files join them as `files`. */
const multipartInput = async (
  req: IncomingMessage,
  operation: AnyOperation,
  multipart: MultipartForm,
  { params, query }: RouteInput,
  idleMs: number,
) => {
  // The path and the query first: a malformed one is answered as on every route, before the form is read.
  parseInput({ ...operation, body: undefined }, { params, query, body: undefined, hasBody: false });
  const form = await readMultipartBody(req, multipart, idleMs);
  const input = parseInput(
    { ...operation, body: multipart.fields },
    { params, query, body: form.fields, hasBody: true },
  );
  input.body = { ...(input.body as object), files: form.files };
  return input;
};

/** The REST routes of the operation table, for every spelling the front door leaves to the router. */
export const restRoutes = (deps: AppDeps, operations: readonly AnyOperation[]): Router => {
  const router = Router();
  for (const operation of operations) {
    const method = operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const handle = operationHandler(deps, operation);
    router[method](expressPath(operation.path), (req, res) =>
      handle(req, res, {
        params: req.params as Record<string, string>,
        query: req.query as Record<string, unknown>,
      }),
    );
  }
  return router;
};
