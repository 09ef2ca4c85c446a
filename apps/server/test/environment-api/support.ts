import type { TestBackend } from '@platform/store/testing';
import { beforeAll, expect } from 'vitest';
import { openApiValidator } from '../support/openapi.ts';
import { seededPlatform } from '../support/seeded.ts';

export const READ_WRITE = ['platform:read', 'platform:write'];
export const OPERATOR = 'auth0|operator';
export const envPath = (environment: string) => `/grafx/api/v1/environment/${environment}`;

export type Reply<T = unknown> = { status: number; body: T; text: string };
export type Problem = {
  status: number;
  title: string;
  detail: string;
  traceId: string;
  errors?: Record<string, string[]>;
};

type CallOptions = { user?: string; roles?: string[]; body?: unknown; raw?: string };

/**
 * The seeded platform of the admin tests, plus a caller of the environment API that checks every answer
 * against the served OpenAPI document (status documented, body valid) and keeps every response text so a
 * test can search them all for secrets.
 */
export const environmentApi = (backend: TestBackend) => {
  const s = seededPlatform(backend);
  const responses: string[] = [];
  const tokens = new Map<string, string>();
  const checked = new Map<string, number>();
  let templates: { path: string; pattern: RegExp }[] = [];
  let validate: ReturnType<typeof openApiValidator>;

  beforeAll(async () => {
    const document = (await (await s.tp.call('/openapi.json')).json()) as Parameters<
      typeof openApiValidator
    >[0];
    validate = openApiValidator(document);
    // Literal paths before templated ones, so `/connectors` never matches `/connectors/{connectorId}`.
    templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }))
      .sort((a, b) => a.path.split('{').length - b.path.split('{').length);
  });

  const tokenFor = async (user: string, roles: string[]) => {
    const key = `${user} ${roles.join(',')}`;
    let token = tokens.get(key);
    if (!token) {
      token = await s.tp.token(user, roles);
      tokens.set(key, token);
    }
    return token;
  };

  const call = async <T = unknown>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Reply<T>> => {
    const { user, roles = READ_WRITE, body, raw } = options;
    const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const response = await s.tp.call(path, {
      method,
      ...(user ? { token: await tokenFor(user, roles) } : {}),
      ...(payload === undefined ? {} : { body: payload, headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    responses.push(text);
    const parsed = text === '' ? undefined : JSON.parse(text);
    const bare = path.split('?')[0] ?? path;
    const template = templates.find((t) => t.pattern.test(bare));
    // Compiling the response schema is the slow part of a check: a few checks per answer kind suffice.
    const key = template && `${template.path} ${method} ${response.status}`;
    const checks = key ? (checked.get(key) ?? 0) : 0;
    if (template && key && checks < 3) {
      checked.set(key, checks + 1);
      const errors = validate(template.path, method, response.status, parsed);
      expect(errors, `${method} ${path} → ${response.status} against the OpenAPI document`).toEqual([]);
    }
    return { status: response.status, body: parsed as T, text };
  };

  return { s, call, responses };
};

/** Asserts a ProblemDetails of `status` and returns it. */
export const expectProblem = (reply: Reply, status: number): Problem => {
  expect(reply.status, reply.text).toBe(status);
  const problem = reply.body as Problem;
  expect(problem).toMatchObject({ status, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
  return problem;
};

/** Asserts a 400 whose `errors` names exactly these fields (in any order). */
export const expectFields = (reply: Reply, fields: string[]): Problem => {
  const problem = expectProblem(reply, 400);
  expect(Object.keys(problem.errors ?? {}).sort(), reply.text).toEqual([...fields].sort());
  return problem;
};

export const connectorBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Acme DAM',
  description: 'Media from the Acme DAM',
  version: '1.0.0',
  type: 'media',
  iconUrl: 'https://acme.example/icon.png',
  options: { pageSize: 20 },
  script: 'export default class Connector {}',
  apiVersion: '1.2',
  allowedDomains: ['api.acme.example', '*.cdn.acme.example'],
  proxyOptions: { forwardedHeaders: true },
  supportedAuth: [
    'staticKey',
    'oAuth2ClientCredentials',
    'oAuth2AuthorizationCode',
    'oAuth2ResourceOwnerPassword',
    'oAuth2JwtBearer',
  ],
  ...overrides,
});
