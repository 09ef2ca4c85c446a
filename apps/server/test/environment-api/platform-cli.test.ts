import { generateKeyPairSync } from 'node:crypto';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { environmentApi, envPath, expectFields, expectProblem } from './support.ts';

/** RS256 needs an RSA key of at least 2048 bits, checked when it is set. */
const JWT_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const JWT_KEY_LINE = JWT_KEY.split('\n')[1] ?? '';

type Connector = {
  id: string;
  name: string;
  version: string;
  enabled: boolean;
  default: boolean;
  allowedDomains: string[];
  proxyOptions: { forwardedHeaders: boolean };
  supportedAuthentication: { browser: string[]; server: string[] };
  createdAt: string;
  updatedAt: string;
};

const ALL_BROWSER = [
  'staticKey',
  'oAuth2ClientCredentials',
  'oAuth2AuthorizationCode',
  'oAuth2ResourceOwnerPassword',
  'oAuth2JwtBearer',
];
const ALL_SERVER = ['staticKey', 'oAuth2ClientCredentials', 'oAuth2ResourceOwnerPassword', 'oAuth2JwtBearer'];

/**
 * The body the platform's own connector CLI sends to publish: package.json's description and version, its
 * config.type and config.iconUrl, the -ro options, the compiled script, the SDK version, the
 * --proxyOption values, and `enabled: false` on a first publish; never `supportedAuth`.
 */
const platformPublishBody = (version: string) => ({
  name: 'Platform CLI connector',
  description: 'published by the platform connector-cli',
  version,
  type: 'media',
  options: { BASE_URL: 'https://dam.acme.example' },
  script: 'var MyConnector = class {};\nexport {\n  MyConnector as default\n};\n',
  apiVersion: '1.17.1',
  allowedDomains: ['dam.acme.example', '*.cdn.acme.example'],
  proxyOptions: { forwardedHeaders: false },
});

describe.each(await testBackends())("the platform connector-cli's requests on $name", (backend) => {
  const { call, responses } = environmentApi(backend);
  const owner = { user: USERS.owner };
  const base = envPath('acme-dev');

  it('publish: enabled false and no supportedAuth → 201, disabled, every type supported', async () => {
    const published = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: { ...platformPublishBody('1.0.0'), enabled: false },
    });
    expect(published.status, published.text).toBe(201);
    expect(published.body).toMatchObject({
      enabled: false,
      default: false,
      supportedAuthentication: { browser: ALL_BROWSER, server: ALL_SERVER },
    });
    // Without `enabled` a publish is enabled, as before.
    const enabled = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: platformPublishBody('1.0.0'),
    });
    expect(enabled.body.enabled).toBe(true);
  });

  it('republish: the GET reply merged with the publish body is accepted; read-only fields ignored', async () => {
    const { body: first } = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: { ...platformPublishBody('1.0.0'), enabled: false, supportedAuth: ['staticKey'] },
    });
    // What `publish --connectorId` sends: {...GET reply, ...publish body}.
    const existing = await call<Connector>('GET', `${base}/connectors/${first.id}`, owner);
    const merged = {
      ...existing.body,
      ...platformPublishBody('1.1.0'),
      id: '00000000-0000-0000-0000-000000000000',
      createdAt: '2001-01-01T00:00:00.000Z',
      supportedAuthentication: { browser: ['oAuth2JwtBearer'], server: [] },
    };
    expect(Object.keys(merged)).toEqual(
      expect.arrayContaining([
        'id',
        'enabled',
        'default',
        'supportedAuthentication',
        'createdAt',
        'updatedAt',
      ]),
    );
    const republished = await call<Connector>('PUT', `${base}/connectors/${first.id}`, {
      ...owner,
      body: merged,
    });
    expect(republished.status, republished.text).toBe(200);
    expect(republished.body).toMatchObject({
      id: first.id,
      version: '1.1.0',
      enabled: false,
      createdAt: first.createdAt,
      // No supportedAuth in the body: the stored list stays.
      supportedAuthentication: { browser: ['staticKey'], server: ['staticKey'] },
    });

    // `enabled` and `default` in a republish body are honoured.
    const honoured = await call<Connector>('PUT', `${base}/connectors/${first.id}`, {
      ...owner,
      body: { ...republished.body, ...platformPublishBody('1.2.0'), enabled: true, default: true },
    });
    expect(honoured.body).toMatchObject({ version: '1.2.0', enabled: true, default: true });

    // Any other unknown field is still refused, by name; the read-only fields are only welcome on republish.
    expectFields(
      await call('PUT', `${base}/connectors/${first.id}`, {
        ...owner,
        body: { ...merged, ownerType: 'grafx', surprise: 1 },
      }),
      ['ownerType', 'surprise'],
    );
    expectFields(
      await call('POST', `${base}/connectors`, {
        ...owner,
        body: { ...platformPublishBody('1.0.0'), id: first.id, default: true },
      }),
      ['id', 'default'],
    );
  });

  it('ROPC with authorizationServerMetadata and JWT bearer with typed values, as its auth types allow', async () => {
    const { body: connector } = await call<Connector>('POST', `${base}/connectors`, {
      ...owner,
      body: { ...platformPublishBody('1.0.0'), enabled: false },
    });
    const ropc = await call('PUT', `${base}/connectors/${connector.id}/auth/oauth-resource-owner-password`, {
      ...owner,
      body: {
        usage: 'server',
        name: 'ropc',
        clientId: 'dam-client',
        clientSecret: 'ropc-client-secret-1',
        username: 'svc',
        password: 'ropc-password-2',
        bodyFormat: 'formUrlEncoded',
        tokenEndpoint: 'https://login.acme.example/token',
        authorizationServerMetadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] },
      },
    });
    expect(ropc.status, ropc.text).toBe(200);
    expectFields(
      await call('PUT', `${base}/connectors/${connector.id}/auth/oauth-resource-owner-password`, {
        ...owner,
        body: {
          usage: 'server',
          clientId: 'c',
          clientSecret: 's',
          username: 'u',
          password: 'p',
          tokenEndpoint: 'https://login.acme.example/token',
          authorizationServerMetadata: { token_endpoint_auth_methods_supported: ['private_key_jwt'] },
        },
      }),
      ['authorizationServerMetadata.token_endpoint_auth_methods_supported[0]'],
    );

    const jwt = await call('PUT', `${base}/connectors/${connector.id}/auth/oauth-jwt-bearer`, {
      ...owner,
      body: {
        usage: 'browser',
        tokenEndpoint: 'https://login.acme.example/token',
        signatureConfig: {
          algorithm: 'RS256',
          privateKey: JWT_KEY,
        },
        jwtPayload: { iss: 'connector', tenant: 42, admin: true },
        jwtTokenParamName: 'assertion',
        requestBodyParams: { client_id: 'dam', version: 3, verbose: false },
      },
    });
    expect(jwt.status, jwt.text).toBe(200);
    expectFields(
      await call('PUT', `${base}/connectors/${connector.id}/auth/oauth-jwt-bearer`, {
        ...owner,
        body: {
          usage: 'browser',
          tokenEndpoint: 'https://login.acme.example/token',
          signatureConfig: { algorithm: 'RS256', privateKey: '-----BEGIN PRIVATE KEY-----\nx\n' },
          jwtPayload: { nested: { no: 1 } },
          requestBodyParams: { list: [1] },
        },
      }),
      ['jwtPayload.nested', 'requestBodyParams.list'],
    );
    const listed = await call<{ usage: string; type: string }[]>(
      'GET',
      `${base}/connectors/${connector.id}/auth`,
      owner,
    );
    expect(listed.body.map((a) => `${a.usage} ${a.type}`).sort()).toEqual([
      'browser oAuth2JwtBearer',
      'server oAuth2ResourceOwnerPassword',
    ]);
    for (const secret of ['ropc-client-secret-1', 'ropc-password-2', JWT_KEY_LINE])
      for (const text of responses) expect(text).not.toContain(secret);
  });

  it('external media: ext-123 is recorded by its first PUT .../vision; a never-recorded id reads 404', async () => {
    const types = await call<{ subjectTypes: { id: string; name: string }[] }>(
      'GET',
      `${base}/vision?expand=allSubjectTypes`,
      owner,
    );
    const [person, animal] = types.body.subjectTypes;
    const one = (id: string, subjectTypeId: string) =>
      call<{ assigned: boolean }>(
        'GET',
        `${base}/external-media/${encodeURIComponent(id)}/vision/subject-types/${subjectTypeId}`,
        owner,
      );
    const put = (id: string, body: unknown) =>
      call<{ id: string; subjectTypes: { subjectTypeId: string; assigned: boolean }[] }>(
        'PUT',
        `${base}/external-media/${encodeURIComponent(id)}/vision`,
        { ...owner, body },
      );

    expectProblem(await one('ext-123', person!.id), 404);
    // A refused first PUT records nothing.
    expectFields(
      await put('ext-123', {
        subjectTypes: [{ id: '00000000-0000-4000-8000-000000000000', assigned: true }],
      }),
      ['subjectTypes[0].id'],
    );
    expectProblem(await one('ext-123', person!.id), 404);

    const recorded = await put('ext-123', { subjectTypes: [{ id: person!.id, assigned: true }] });
    expect(recorded.status, recorded.text).toBe(200);
    expect(recorded.body.id).toBe('ext-123');
    expect(recorded.body.subjectTypes.find((t) => t.subjectTypeId === person!.id)?.assigned).toBe(true);
    expect((await one('ext-123', person!.id)).body.assigned).toBe(true);
    expect((await one('ext-123', animal!.id)).body.assigned).toBe(false);
    const again = await put('ext-123', { subjectTypes: [{ id: animal!.id, assigned: true }] });
    expect(again.body.subjectTypes.filter((t) => t.assigned)).toHaveLength(2);

    // Ids are opaque and exact: another case is another asset; 256 characters fit, 257 and control characters do not.
    expectProblem(await one('EXT-123', person!.id), 404);
    const long = `x${'é'.repeat(255)}`;
    expect((await put(long, { subjectTypes: [{ id: person!.id, assigned: true }] })).status).toBe(200);
    expect((await one(long, person!.id)).body.assigned).toBe(true);
    expectProblem(await put(`${long}x`, { subjectTypes: [{ id: person!.id, assigned: true }] }), 404);
    expectProblem(await put('ext\u0007bell', { subjectTypes: [{ id: person!.id, assigned: true }] }), 404);
    // Not a media asset: the media paths do not know it.
    expectProblem(await call('GET', `${base}/media/ext-123/vision/subject-types/${person!.id}`, owner), 404);
  });
});
