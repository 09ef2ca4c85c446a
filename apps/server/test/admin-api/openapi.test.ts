import { get } from 'node:http';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { ENV_PROD, SUB_A, USERS } from '../support/fixture.ts';
import { openApiValidator } from '../support/openapi.ts';
import { redoclyProblems, spectralProblems } from '../support/openapi-lint.ts';
import { json, seededPlatform } from '../support/seeded.ts';

const backends = (await testBackends()).slice(0, 1);

describe.each(backends)('the served OpenAPI document on $name', (backend) => {
  const s = seededPlatform(backend);

  it('is OpenAPI 3.1 and documents every endpoint of the specification', async () => {
    const document = await json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(
      await s.tp.call('/openapi.json'),
    );
    expect(document.openapi).toBe('3.1.0');
    const expected: [string, string][] = [
      ['/api/v1/info', 'get'],
      ['/api/ping', 'get'],
      ['/api/ready', 'get'],
      ['/api/v1/environments', 'get'],
      ['/api/v1/environments/{environmentId}', 'get'],
      ['/api/v1/environments/{environmentId}/renders', 'get'],
      ['/api/v1/subscriptions', 'get'],
      ['/api/v1/subscriptions/{subscriptionId}', 'get'],
      ['/api/v1/subscriptions/{subscriptionId}/renders', 'get'],
      ['/api/v1/subscriptions/{subscriptionId}/users', 'get'],
      ['/api/v1/subscriptions/{subscriptionId}/users/{userId}', 'get'],
      ['/api/v1/subscriptions/{subscriptionId}/external-idp-domains', 'put'],
    ];
    for (const [path, method] of expected)
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });

  it("documents the connector SDK's current interface: data/item, media/upload as a form, previousPageToken", async () => {
    type Body = {
      content: Record<string, { schema: Record<string, unknown>; encoding?: Record<string, unknown> }>;
    };
    type Op = { requestBody?: Body; responses: Record<string, unknown> };
    const document = await json<{ paths: Record<string, Record<string, Op>> }>(
      await s.tp.call('/openapi.json'),
    );
    const base = '/grafx/api/v1/environment/{environment}/connectors/{connectorId}';
    const item = document.paths[`${base}/data/item`]?.post;
    expect(Object.keys(item?.requestBody?.content ?? {})).toEqual(['application/json']);
    const itemBody = item?.requestBody?.content['application/json']?.schema as {
      required: string[];
      properties: Record<string, { required?: string[] }>;
    };
    expect(itemBody.required).toEqual(['id', 'pageOptions']);
    expect(itemBody.properties.pageOptions?.required).toEqual(['limit']);
    expect(Object.keys(item?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '502']));

    const upload = document.paths[`${base}/media/upload`]?.post;
    const form = upload?.requestBody?.content['multipart/form-data'];
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(form?.schema).toMatchObject({
      required: ['file'],
      properties: {
        file: { type: 'array', items: { type: 'string', format: 'binary' }, maxItems: 100 },
        usage: { type: 'string', contentMediaType: 'application/json' },
        options: { type: 'string', contentMediaType: 'application/json' },
        context: { type: 'string', contentMediaType: 'application/json' },
      },
    });
    expect(Object.keys(upload?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '413', '415']),
    );

    const page = document.paths[`${base}/data/page`]?.post?.requestBody?.content['application/json']
      ?.schema as {
      properties: { config: { properties: Record<string, unknown> } };
    };
    expect(Object.keys(page.properties.config.properties)).toContain('previousPageToken');
  });

  it('names every token role an operation needs, as the server judges them', async () => {
    type Op = { 'x-required-role'?: string; 'x-required-roles'?: string[]; security?: unknown[] };
    const document = await json<{ paths: Record<string, Record<string, Op>> }>(
      await s.tp.call('/openapi.json'),
    );
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // `parameters` and the like are no operation; a public operation takes no token.
        if (!['get', 'put', 'post', 'patch', 'delete', 'head', 'options'].includes(method)) continue;
        if (op.security?.length === 0) continue;
        expect(op['x-required-roles'], `${method} ${path}`).toContain(op['x-required-role']);
      }
    }
    const imports = document.paths['/api/v1/imports']?.post;
    expect(imports?.['x-required-roles']).toEqual(['platform:write', 'platform:admin']);
    // What it says is what the server does: write alone is refused, write and admin pass the check of roles.
    const writer = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const refused = await s.tp.call('/api/v1/imports', { method: 'POST', token: writer, body: '{}' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('platform:admin');
  });

  it('describes every response the server gives, errors included', async () => {
    const validate = openApiValidator(await json(await s.tp.call('/openapi.json')));
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const member = await s.tp.token(USERS.member, ['platform:read', 'platform:write']);
    const calls: [string, string, string, string | undefined, string | undefined][] = [
      ['/api/v1/info', 'GET', '/api/v1/info', undefined, undefined],
      ['/api/v1/environments', 'GET', '/api/v1/environments', token, undefined],
      ['/api/v1/environments/{environmentId}', 'GET', `/api/v1/environments/${ENV_PROD}`, token, undefined],
      ['/api/v1/environments/{environmentId}', 'GET', '/api/v1/environments/x', token, undefined],
      [
        '/api/v1/environments/{environmentId}/renders',
        'GET',
        `/api/v1/environments/${ENV_PROD}/renders?groupBy=year`,
        token,
        undefined,
      ],
      [
        '/api/v1/environments/{environmentId}/renders',
        'GET',
        `/api/v1/environments/${ENV_PROD}/renders`,
        token,
        undefined,
      ],
      ['/api/v1/subscriptions', 'GET', '/api/v1/subscriptions', token, undefined],
      ['/api/v1/subscriptions', 'GET', '/api/v1/subscriptions', undefined, undefined],
      ['/api/v1/subscriptions/{subscriptionId}', 'GET', `/api/v1/subscriptions/${SUB_A}`, token, undefined],
      [
        '/api/v1/subscriptions/{subscriptionId}/renders',
        'GET',
        `/api/v1/subscriptions/${SUB_A}/renders?groupBy=month&top=2`,
        token,
        undefined,
      ],
      [
        '/api/v1/subscriptions/{subscriptionId}/users',
        'GET',
        `/api/v1/subscriptions/${SUB_A}/users`,
        token,
        undefined,
      ],
      [
        '/api/v1/subscriptions/{subscriptionId}/users',
        'GET',
        `/api/v1/subscriptions/${SUB_A}/users`,
        member,
        undefined,
      ],
      [
        '/api/v1/subscriptions/{subscriptionId}/users/{userId}',
        'GET',
        `/api/v1/subscriptions/${SUB_A}/users/${encodeURIComponent(USERS.admin)}`,
        token,
        undefined,
      ],
      [
        '/api/v1/subscriptions/{subscriptionId}/external-idp-domains',
        'PUT',
        `/api/v1/subscriptions/${SUB_A}/external-idp-domains`,
        token,
        '["*.x"]',
      ],
      [
        '/api/v1/subscriptions/{subscriptionId}/external-idp-domains',
        'GET',
        `/api/v1/subscriptions/${SUB_A}/external-idp-domains`,
        token,
        undefined,
      ],
    ];
    for (const [template, method, path, bearer, body] of calls) {
      const response = await s.tp.call(path, {
        method,
        ...(bearer ? { token: bearer } : {}),
        ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
      });
      const text = await response.text();
      const errors = validate(template, method, response.status, text === '' ? undefined : JSON.parse(text));
      expect(errors, `${method} ${path} → ${response.status}`).toEqual([]);
    }
  });
});

describe.each(backends)('the OpenAPI document under lint on $name', (backend) => {
  const s = seededPlatform(backend);

  it('has no error and no warning under Redocly recommended and Spectral spectral:oas', async () => {
    const source = await (await s.tp.call('/openapi.json')).text();
    expect(await redoclyProblems(source)).toEqual([]);
    expect(await spectralProblems(source)).toEqual([]);
  });

  it('generates TypeScript with openapi-typescript in which no parameter is unknown', async () => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const document = await json<Record<string, unknown>>(await s.tp.call('/openapi.json'));
    const types = astToString(await openapiTS(document as never));
    const parameters = [...types.matchAll(/parameters: \{([\s\S]*?)\n {8}\};/g)].map((m) => m[1] ?? '');
    expect(parameters.length).toBeGreaterThan(40);
    expect(parameters.filter((block) => /: unknown/.test(block))).toEqual([]);
    expect(types).toMatch(/groupBy: "year" \| "month";/);
    expect(types).toMatch(/top\?: number;/);
    // The data file is typed, not Record<string, never>.
    expect(types).toMatch(/DataFile: \{/);
  });

  it('lists the address the client used and the public URL as servers', async () => {
    // fetch may not set Host: node:http may.
    const document = await new Promise<{ servers: { url: string }[] }>((resolve, reject) => {
      get(`${s.tp.url}/openapi.json`, { headers: { host: 'platform.internal.example:8443' } }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(JSON.parse(text)));
      }).on('error', reject);
    });
    expect(document.servers.map((server) => server.url)).toEqual([
      'http://platform.internal.example:8443',
      s.tp.url,
    ]);
    const own = await json<{ servers: { url: string }[] }>(await s.tp.call('/openapi.json'));
    expect(own.servers.map((server) => server.url)).toEqual([s.tp.url]);
  });
});
