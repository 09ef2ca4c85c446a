import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { ENV_PROD, SUB_A, USERS } from '../support/fixture.ts';
import { openApiValidator } from '../support/openapi.ts';
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

describe.each(backends)('the OpenAPI document under Redocly lint on $name', (backend) => {
  const s = seededPlatform(backend);

  it('has no lint errors with the recommended rule set', async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core');
    const source = await (await s.tp.call('/openapi.json')).text();
    const problems = await lintFromString({
      source,
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });
});
