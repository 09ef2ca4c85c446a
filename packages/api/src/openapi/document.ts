import { ProblemDetails, statusTitle } from '@platform/core';
import type { z } from 'zod';
import type { AnyOperation } from '../operations/operation.ts';
import { createSchemaCollector } from './json-schema.ts';

/** Every protected operation can answer 401 and 403; every operation can be rate limited. */
const PROTECTED = [401, 403];

const problemResponse = (status: number) => ({
  description: statusTitle(status),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
});

/** The OpenAPI 3.1 document of an operation table: every path, parameter, body, response and error response. */
export const openApiDocument = (
  operations: readonly AnyOperation[],
  info: { version: string; serverUrl: string },
): Record<string, unknown> => {
  const { components, toSchema } = createSchemaCollector();
  toSchema(ProblemDetails, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const parameters: unknown[] = [];
    for (const [name, schema] of Object.entries(op.params?.shape ?? {})) {
      parameters.push({ name, in: 'path', required: true, schema: toSchema(schema as z.ZodType, 'input') });
    }
    for (const [name, schema] of Object.entries(op.query?.shape ?? {})) {
      const s = schema as z.ZodType;
      parameters.push({
        name,
        in: 'query',
        required: !s.safeParse(undefined).success,
        ...(s.description ? { description: s.description } : {}),
        schema: toSchema(s, 'input'),
      });
    }
    const responses: Record<string, unknown> = {
      [String(op.status)]: op.response
        ? {
            description: 'Success',
            content: { [op.produces ?? 'application/json']: { schema: toSchema(op.response, 'output') } },
          }
        : { description: 'Success, no body' },
    };
    const errorStatuses = new Set([...(op.access === 'public' ? [] : PROTECTED), 429, ...op.errors]);
    for (const status of [...errorStatuses].sort()) responses[String(status)] = problemResponse(status);
    paths[op.path] ??= {};
    const path = paths[op.path] as Record<string, unknown>;
    path[op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      tags: [op.tag],
      ...(op.access === 'public' ? { security: [] } : { 'x-required-role': op.access }),
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              ...(op.bodyDescription ? { description: op.bodyDescription } : {}),
              content: { 'application/json': { schema: toSchema(op.body, 'input') } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform API',
      version: info.version,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description:
        'Administration API, environment API and connector proxy of the hosted design and publishing platform. ' +
        'Errors are ProblemDetails (RFC 9457) with a traceId. ' +
        'Prometheus metrics: GET /metrics with a bearer token holding platform:admin or platform:metrics (connector ids ' +
        'summed away); when METRICS_PORT is set, the same without a token and with connector ids, on that port only. ' +
        'Connector authorization code: POST .../oauth-authorization-code/login, the provider redirects the popup to ' +
        '.../redirect (an HTML page that posts {state, code} to its opener), the opener calls .../complete.',
    },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: components,
    },
  };
};
