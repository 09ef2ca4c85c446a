import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { ENV_PROD, USERS } from '../support/fixture.ts';
import { connectorBody, environmentApi, envPath, expectProblem, OPERATOR } from './support.ts';

type Ids = {
  connector: string;
  template: string;
  tag: string;
  media: string;
  external: string;
  subjectType: string;
};

const base = envPath('acme-prod');

const reads = (ids: Ids): [string, string][] => [
  ['GET', `${base}/connectors`],
  ['GET', `/grafx/api/experimental/environment/${ENV_PROD}/connectors`],
  ['GET', `${base}/connectors/${ids.connector}`],
  ['GET', `${base}/connectors/${ids.connector}/auth`],
  ['GET', `${base}/connectors/${ids.connector}/shared-headers`],
  ['GET', `${base}/templates`],
  ['GET', `${base}/templates/${ids.template}`],
  ['GET', `${base}/tags`],
  ['GET', `${base}/vision?expand=allSubjectTypes`],
  ['GET', `${base}/media/${ids.media}/vision/subject-types/${ids.subjectType}`],
  ['GET', `${base}/external-media/${ids.external}/vision/subject-types/${ids.subjectType}`],
];

/** Every write, in an order where each succeeds for a caller allowed to write (deletes last). */
const writes = (ids: Ids, n: string): [string, string, unknown][] => [
  ['POST', `${base}/connectors`, connectorBody()],
  ['PUT', `${base}/connectors/${ids.connector}`, connectorBody({ version: '2.0.0' })],
  ['PATCH', `${base}/connectors/${ids.connector}`, { enabled: false }],
  ['PUT', `${base}/connectors/${ids.connector}/auth/static`, { usage: 'server', key: 'X-K', value: 'v' }],
  ['DELETE', `${base}/connectors/${ids.connector}/auth?authUsage=server`, undefined],
  ['PUT', `${base}/connectors/${ids.connector}/shared-headers`, { headers: { 'X-A': '1' } }],
  ['POST', `${base}/templates`, { name: 'T' }],
  ['PUT', `${base}/templates/${ids.template}`, { content: 'c' }],
  ['PUT', `${base}/templates/${ids.template}/tags`, { tagIds: [ids.tag] }],
  ['POST', `${base}/tags`, { name: `Tag ${n}` }],
  ['PUT', `${base}/tags/${ids.tag}`, { name: `Renamed ${n}` }],
  ['POST', `${base}/media`, { name: 'm' }],
  ['POST', `${base}/external-media`, { name: 'e' }],
  ['PATCH', `${base}/media/${ids.media}`, { subjectTypes: [{ id: ids.subjectType, assigned: true }] }],
  [
    'PUT',
    `${base}/external-media/${ids.external}/vision`,
    { subjectTypes: [{ id: ids.subjectType, assigned: true }] },
  ],
  ['DELETE', `${base}/tags/${ids.tag}`, undefined],
  ['DELETE', `${base}/templates/${ids.template}`, undefined],
  ['DELETE', `${base}/connectors/${ids.connector}`, undefined],
];

/** docs/authentication.md: who reads and who writes the environment API of acme-prod. */
const matrix: [string, string, 'ok' | 403 | 404, 'ok' | 403 | 404, string[]?][] = [
  ['SubscriptionOwner', USERS.owner, 'ok', 'ok'],
  ['SubscriptionAdmin', USERS.admin, 'ok', 'ok'],
  ['EnvironmentAdmin', USERS.envAdmin, 'ok', 'ok'],
  ['ContentUser', USERS.contentUser, 'ok', 403],
  ['SubscriptionMember', USERS.member, 'ok', 403],
  ['member of another environment', USERS.designer, 404, 404],
  ['non-member', USERS.outsider, 404, 404],
  ['operator', OPERATOR, 'ok', 'ok', ['platform:read', 'platform:write', 'platform:admin']],
];

describe.each(await testBackends())('environment API access on $name', (backend) => {
  const { call } = environmentApi(backend);
  const owner = { user: USERS.owner };
  let counter = 0;

  const fixtures = async (): Promise<Ids> => {
    const connector = await call<{ id: string }>('POST', `${base}/connectors`, {
      ...owner,
      body: connectorBody(),
    });
    const template = await call<{ id: string }>('POST', `${base}/templates`, {
      ...owner,
      body: { name: 'A' },
    });
    const tag = await call<{ id: string }>('POST', `${base}/tags`, {
      ...owner,
      body: { name: `t${++counter}` },
    });
    const media = await call<{ id: string }>('POST', `${base}/media`, { ...owner, body: { name: 'm' } });
    const external = await call<{ id: string }>('POST', `${base}/external-media`, {
      ...owner,
      body: { name: 'e' },
    });
    const vision = await call<{ subjectTypes: { id: string }[] }>('GET', `${base}/vision`, owner);
    return {
      connector: connector.body.id,
      template: template.body.id,
      tag: tag.body.id,
      media: media.body.id,
      external: external.body.id,
      subjectType: vision.body.subjectTypes[0]!.id,
    };
  };

  it.each(matrix)('%s (%s) reads: %s, writes: %s', async (_role, user, read, write, roles) => {
    const ids = await fixtures();
    const as = { user, ...(roles ? { roles } : {}) };
    for (const [method, path] of reads(ids)) {
      const reply = await call(method, path, as);
      if (read === 'ok') expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(200);
      else expectProblem(reply, read);
    }
    for (const [method, path, body] of writes(ids, String(++counter))) {
      const reply = await call(method, path, { ...as, body });
      if (write === 'ok') expect([200, 201, 204], `${method} ${path}: ${reply.text}`).toContain(reply.status);
      else expectProblem(reply, write);
    }
  });

  it('an EnvironmentAdmin of acme-prod does not see another environment', async () => {
    expectProblem(await call('GET', `${envPath('acme-sandbox')}/connectors`, { user: USERS.envAdmin }), 404);
    expectProblem(
      await call('POST', `${envPath('acme-sandbox')}/tags`, { user: USERS.envAdmin, body: { name: 'x' } }),
      404,
    );
  });

  it('needs a token (401) and the token role of the method (403)', async () => {
    const ids = await fixtures();
    for (const [method, path] of reads(ids)) {
      const reply = await call(method, path);
      expectProblem(reply, 401);
    }
    for (const [method, path, body] of writes(ids, 'x')) {
      expectProblem(await call(method, path, { body }), 401);
      expectProblem(await call(method, path, { user: USERS.owner, roles: ['platform:read'], body }), 403);
    }
    for (const [method, path] of reads(ids)) {
      expectProblem(await call(method, path, { user: USERS.owner, roles: ['platform:write'] }), 403);
    }
  });

  it('documents every path of the environment API in the OpenAPI document', async () => {
    const document = (await call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json'))
      .body;
    const ids: Ids = {
      connector: '{connectorId}',
      template: '{templateId}',
      tag: '{tagId}',
      media: '{mediaId}',
      external: '{externalMediaId}',
      subjectType: '{subjectTypeId}',
    };
    const templated = (path: string) =>
      (path.split('?')[0] ?? path)
        .replace('acme-prod', '{environment}')
        .replace(ENV_PROD, '{environment}')
        .replace('/auth/static', '/auth/{kind}');
    for (const [method, path] of [...reads(ids), ...writes(ids, 'x')]) {
      expect(
        document.paths[templated(path)]?.[method.toLowerCase()],
        `${method} ${templated(path)}`,
      ).toBeDefined();
    }
  });
});
