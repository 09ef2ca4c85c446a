import { ProblemDetails, statusTitle } from '@platform/core';
import type { z } from 'zod';
import { checkedByService } from '../operations/input.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { MODEL_EXAMPLES } from './examples.ts';
import { createSchemaCollector } from './json-schema.ts';
import { multipartContent } from './multipart-body.ts';
import { proxyPathItem } from './proxy-path.ts';
import { TAGS } from './tags.ts';

/** Every protected operation: no valid token (401), a role missing (403), the database not answering (503). */
const PROTECTED = [401, 403, 503];
/**
 * Every operation: a value read (a parameter, a header) holding U+0000 or an unpaired surrogate, or a query parameter
 * given twice (400), a known path asked with another method (405), the rate limit (429).
 */
const ALWAYS = [400, 405, 429];
/** Every operation with a body: over its limit (413), an unknown Content-Encoding (415). */
const WITH_BODY = [413, 415];

/** What each error status means on this platform (docs/errors.md); the body is always a ProblemDetails. */
const STATUS_MEANING: Record<number, string> = {
  400: 'The request is malformed (a value holding U+0000 or an unpaired surrogate included): `errors` names each bad parameter or field.',
  401: 'No bearer token, or one that fails verification (`WWW-Authenticate: Bearer`).',
  403: 'The token lacks the role the operation needs, or the caller lacks the subscription or environment role.',
  404: 'Not found, or not visible to the caller (the two are never told apart).',
  405: 'The path exists but not with this method; `Allow` lists the methods it takes.',
  409: 'The request conflicts with what is stored.',
  413: "The body is over the operation's limit (counted after decoding).",
  415: "The body's `Content-Encoding` is not gzip, deflate or br (a body that is not `application/json` is 400); on `media/upload`, a body that is not `multipart/form-data`.",
  429: 'Over the rate limit; `Retry-After` says when to try again.',
  502: 'An upstream server (the identity provider, a token endpoint or the target) failed; never a secret.',
  503: "The database does not answer, or (a connector run) the runtime is busy with the subscription's calls (`RUNTIME_BUSY`); `Retry-After` says when to try again.",
  504: 'The target did not answer in time.',
};

const problemResponse = (status: number) => ({
  description: `${statusTitle(status)}. ${STATUS_MEANING[status] ?? ''}`.trim(),
  ...(status === 429 || status === 503
    ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
    : status === 405
      ? { headers: { Allow: { description: 'The methods the path takes.', schema: { type: 'string' } } } }
      : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
});

/**
 * Whether a query parameter is required: `.optional()` says it is not, except for one the service checks itself
 * after visibility (the render query's `groupBy`), which lets an absence through yet is required all the same.
 */
const isRequired = (schema: z.ZodType): boolean =>
  checkedByService.has(schema) || schema._zod.optin !== 'optional';

/** Query parameter examples, from the demo data. */
const QUERY_EXAMPLES: Record<string, unknown> = {
  groupBy: 'year',
  top: 3,
  startDate: '2026-01-01',
  endDate: '2026-06-30',
  environmentName: 'prod',
  search: 'flyer',
  limit: 25,
};

/**
 * The OpenAPI 3.1 document of an operation table, with every path, parameter, body, response and error response,
 * plus the connector proxy. `servers` is left to the caller: it depends on the request (see `withServers`).
 */
export const openApiDocument = (
  operations: readonly AnyOperation[],
  info: { version: string },
): Record<string, unknown> => {
  const { components, toSchema } = createSchemaCollector();
  toSchema(ProblemDetails, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const parameters: unknown[] = [];
    for (const [name, schema] of Object.entries(op.params?.shape ?? {})) {
      const s = schema as z.ZodType;
      parameters.push({
        name,
        in: 'path',
        required: true,
        ...(s.description ? { description: s.description } : {}),
        schema: toSchema(s, 'input'),
      });
    }
    for (const [name, schema] of Object.entries(op.query?.shape ?? {})) {
      const s = schema as z.ZodType;
      // `.optional()` wraps the described schema: its description is the inner one's.
      const description = s.description ?? (s._zod.def as { innerType?: z.ZodType }).innerType?.description;
      parameters.push({
        name,
        in: 'query',
        required: isRequired(s),
        ...(description ? { description } : {}),
        schema: toSchema(s, 'input'),
        ...(name in QUERY_EXAMPLES ? { example: QUERY_EXAMPLES[name] } : {}),
      });
    }
    const responses: Record<string, unknown> = {
      [String(op.status)]: op.response
        ? {
            description: 'Success',
            content: {
              [op.produces ?? 'application/json']: {
                schema:
                  op.produces === 'application/octet-stream'
                    ? { type: 'string', format: 'binary' }
                    : toSchema(op.response, 'output'),
              },
            },
          }
        : { description: 'Success, no body' },
    };
    const errorStatuses = new Set([
      ...(op.access === 'public' ? [] : PROTECTED),
      ...ALWAYS,
      ...(op.body ? WITH_BODY : []),
      ...op.errors,
    ]);
    for (const status of [...errorStatuses].sort()) responses[String(status)] = problemResponse(status);
    const body = op.documentedBody ?? op.body;
    paths[op.path] ??= {};
    const path = paths[op.path] as Record<string, unknown>;
    path[op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      ...(op.access === 'public'
        ? { security: [] }
        : {
            'x-required-role': op.access,
            'x-required-roles': op.operatorOnly ? [op.access, 'platform:admin'] : [op.access],
          }),
      ...(parameters.length ? { parameters } : {}),
      ...(body
        ? {
            requestBody: {
              required: !op.bodyOptional,
              ...(op.bodyDescription ? { description: op.bodyDescription } : {}),
              content: op.multipart
                ? { 'multipart/form-data': multipartContent(op.multipart, toSchema) }
                : { 'application/json': { schema: toSchema(body, 'input') } },
            },
          }
        : {}),
      responses,
    };
  }
  Object.assign(paths, proxyPathItem(problemResponse));
  for (const [name, example] of Object.entries(MODEL_EXAMPLES)) {
    const component = components[name];
    if (component) component.examples = [example];
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform API',
      version: info.version,
      contact: { name: 'Platform team', url: 'https://platform.example/support' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description:
        'Administration API, environment API and connector proxy of the hosted design and publishing platform. ' +
        'Protected operations take a bearer JWT; `x-required-role` names the token role each needs, and ' +
        '`x-required-roles` every token role (the import also needs the operator role platform:admin). ' +
        'Errors are ProblemDetails (RFC 9457) with a `traceId`, and `errors` for validation failures. ' +
        'Any path answers 405 to a method it does not take, but the connector proxy, which takes every method ' +
        '(HEAD and OPTIONS are forwarded to the target too). ' +
        'Prometheus metrics: GET /metrics with a bearer token holding platform:admin or platform:metrics (connector ids ' +
        'summed away); when METRICS_PORT is set, the same without a token and with connector ids, on that port only. ' +
        'Connector authorization code: POST .../oauth-authorization-code/login, the provider redirects the popup to ' +
        '.../redirect (an HTML page that posts {state, code} to its opener), the opener calls .../complete.',
    },
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: components,
    },
  };
};

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The document with `servers` for the request that asked: the address the client used (its Host header, when it
 * is a plain host name or address), then the configured public URL; one entry when they are the same host.
 */
export const withServers = (
  document: Record<string, unknown>,
  publicUrl: string,
  request: { host: string | undefined; protocol: string },
): Record<string, unknown> => {
  const configured = new URL(publicUrl);
  const servers: { url: string; description: string }[] = [];
  const host = request.host;
  if (host && HOST.test(host) && host.toLowerCase() !== configured.host.toLowerCase()) {
    servers.push({
      url: `${request.protocol}://${host}`,
      description: 'The address this document was read from',
    });
  }
  // With its path: a platform behind a load balancer's prefix (`https://example.com/platform`) is reached under it.
  const url = `${configured.origin}${configured.pathname.replace(/\/+$/, '')}`;
  servers.push({ url, description: 'The public address of this platform (PUBLIC_URL)' });
  return { ...document, servers };
};
