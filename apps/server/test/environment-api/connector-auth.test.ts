import { generateKeyPairSync } from 'node:crypto';
import type { AuditPage } from '@platform/core';
import { createSecretBox, loadOrCreateSecretsKey, queryRows, schema } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { connectorBody, environmentApi, envPath, expectFields, expectProblem } from './support.ts';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** Secret values, each distinct and easy to search for. */
const SECRETS = {
  staticValue: 'Bearer sk-static-9f8e7d6c5b4a',
  ccSecret: 'cc-secret-0a1b2c3d4e5f',
  codeSecret: 'code-secret-5e6f7a8b9c0d',
  ropcSecret: 'ropc-client-secret-1122aabb',
  ropcPassword: 'ropc-password-3344ccdd',
  privateKey: PRIVATE_KEY,
  sharedHeader: 'shared-header-value-7788eeff',
  jwtClaim: 'jwt-claim-planted-4d5e6f7a',
  bodyParam: 'body-param-client-secret-8a9b0c1d',
};

/** A valid body for every kind, with the secrets above. */
const validBodies = (usage: 'browser' | 'server') => ({
  static: { usage, key: 'X-Api-Key', value: SECRETS.staticValue },
  'oauth-client-credentials': {
    usage,
    clientId: 'cc-client',
    clientSecret: SECRETS.ccSecret,
    scope: 'read',
    tokenEndpoint: 'https://auth.acme.example/token',
  },
  'oauth-authorization-code': {
    usage,
    clientId: 'code-client',
    clientSecret: SECRETS.codeSecret,
    authorizationServerMetadata: {
      authorization_endpoint: 'https://auth.acme.example/authorize',
      token_endpoint: 'https://auth.acme.example/token',
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    },
  },
  'oauth-resource-owner-password': {
    usage,
    clientId: 'ropc-client',
    clientSecret: SECRETS.ropcSecret,
    username: 'integration',
    password: SECRETS.ropcPassword,
    bodyFormat: 'applicationJson',
    tokenEndpoint: 'https://auth.acme.example/token',
  },
  'oauth-jwt-bearer': {
    usage,
    tokenEndpoint: 'https://auth.acme.example/token',
    signatureConfig: { algorithm: 'RS256', privateKey: SECRETS.privateKey },
    jwtPayload: {
      iss: 'connector',
      aud: 'https://auth.acme.example',
      sub: SECRETS.jwtClaim,
      admin: true,
      n: 1,
    },
    requestBodyParams: { client_id: 'jwt-client', client_secret: SECRETS.bodyParam },
  },
});

type AuthSet = { id: string; name: string; type: string; usage: string };
type Summary = { usage: string; type: string; name: string; updatedAt: string };

describe.each(await testBackends())('connector authorization on $name', (backend) => {
  const { s, call, responses } = environmentApi(backend);
  const owner = { user: USERS.owner };
  const base = `${envPath('acme-prod')}/connectors`;
  let secrets: ReturnType<typeof createSecretBox>;

  beforeAll(async () => {
    const { database } = s.tp;
    secrets = createSecretBox(
      database.databaseUrl
        ? Buffer.alloc(32, 7).toString('base64')
        : await loadOrCreateSecretsKey(database.dataDir),
    );
  });

  const publish = async (supportedAuth?: string[]) => {
    const reply = await call<{ id: string }>('POST', base, {
      ...owner,
      body: connectorBody(supportedAuth ? { supportedAuth } : {}),
    });
    expect(reply.status).toBe(201);
    return reply.body.id;
  };

  const authRows = (connectorId: string) =>
    s.tp.database.db
      .select()
      .from(schema.connectorAuth)
      .where(eq(schema.connectorAuth.connectorId, connectorId));

  const addToken = (connectorId: string, usage: string, revision: number) =>
    s.tp.database.db.insert(schema.connectorTokens).values({
      connectorId,
      usage,
      revision,
      accessToken: 'sealed-access-token',
      expiresAt: new Date(Date.now() + 3600_000),
      updatedAt: new Date(),
    });

  /** The audit trail's entries about one connector, oldest first, as its subscription's owner reads them. */
  const trailOf = async (connectorId: string) => {
    const page = await call<AuditPage>('GET', '/api/v1/audit?environment=acme-prod&limit=200', owner);
    expect(page.status).toBe(200);
    return page.body.data.filter((entry) => entry.target.id === connectorId).reverse();
  };

  const tokensOf = (connectorId: string) =>
    s.tp.database.db
      .select()
      .from(schema.connectorTokens)
      .where(eq(schema.connectorTokens.connectorId, connectorId));

  it('sets every type; stores the secrets sealed the way the proxy reads them; never shows them', async () => {
    const id = await publish();
    const kinds = Object.entries(validBodies('browser'));
    for (const [kind, body] of kinds) {
      const usage = kind === 'oauth-authorization-code' ? 'browser' : 'server';
      const reply = await call<AuthSet>('PUT', `${base}/${id}/auth/${kind}`, {
        ...owner,
        body: { ...body, usage },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ usage, name: `${reply.body.type} (${usage})` });
      const [row] = (await authRows(id)).filter((r) => r.usage === usage);
      expect(row?.type).toBe(reply.body.type);
      expect(row?.id).toBe(reply.body.id);
      // The proxy's contract: publicData is the data without its secret fields, secretData the sealed rest.
      const opened = JSON.parse(secrets.open(row!.secretData)) as Record<string, string>;
      const { usage: _usage, ...data } = body as Record<string, unknown>;
      const merged: Record<string, unknown> = structuredClone(row!.publicData);
      for (const [path, value] of Object.entries(opened)) {
        const parts = path.split('.');
        let node = merged;
        for (const part of parts.slice(0, -1)) {
          node[part] ??= {};
          node = node[part] as Record<string, unknown>;
        }
        node[parts.at(-1)!] = value;
      }
      expect(merged).toMatchObject(data);
      expect(JSON.stringify(row!.publicData)).not.toMatch(/secret-|password-|PRIVATE KEY|sk-static|planted/);
      expect(row!.publicData).not.toHaveProperty('jwtPayload');
      expect(row!.publicData).not.toHaveProperty('requestBodyParams');
    }
    const named = await call<AuthSet>('PUT', `${base}/${id}/auth/static`, {
      ...owner,
      body: { ...validBodies('server').static, name: '  Production key ' },
    });
    expect(named.body.name).toBe('Production key');

    const list = await call<Summary[]>('GET', `${base}/${id}/auth`, owner);
    expect(list.status).toBe(200);
    expect(list.body.map(({ usage, type, name }) => ({ usage, type, name }))).toEqual([
      { usage: 'browser', type: 'oAuth2AuthorizationCode', name: 'oAuth2AuthorizationCode (browser)' },
      { usage: 'server', type: 'staticKey', name: 'Production key' },
    ]);

    await call('PUT', `${base}/${id}/shared-headers`, {
      ...owner,
      body: { headers: { 'X-Tenant': SECRETS.sharedHeader } },
    });

    // Nothing in clear in any table that holds connector configuration, any answer or any log line.
    const dump = (
      await Promise.all(
        ['connectors', 'connector_auth', 'connector_tokens', 'connector_shared_headers', 'audit_entries'].map(
          (table) =>
            queryRows<{ row: string }>(s.tp.database.db, sql.raw(`select t::text as row from ${table} t`)),
        ),
      )
    )
      .flat()
      .map((r) => r.row)
      .join('\n');
    expect(dump).toContain(id);
    const haystacks = { dump, responses: responses.join('\n'), logs: s.tp.logs.join('\n') };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const [name, secret] of Object.entries(SECRETS)) {
        const needle = name === 'privateKey' ? secret.split('\n')[1]! : secret;
        expect(text.includes(needle), `${name} found in ${where}`).toBe(false);
      }
    }
  });

  it('replaces a usage: new type, new id and revision, its cached tokens kept, audited', async () => {
    const id = await publish();
    const first = await call<AuthSet>('PUT', `${base}/${id}/auth/static`, {
      ...owner,
      body: validBodies('server').static,
    });
    const [before] = await authRows(id);
    await addToken(id, 'server', before!.revision);
    await call('PUT', `${base}/${id}/auth/oauth-client-credentials`, {
      ...owner,
      body: validBodies('browser')['oauth-client-credentials'],
    });
    await addToken(id, 'browser', (await authRows(id)).find((r) => r.usage === 'browser')!.revision);

    const second = await call<AuthSet>('PUT', `${base}/${id}/auth/oauth-resource-owner-password`, {
      ...owner,
      body: validBodies('server')['oauth-resource-owner-password'],
    });
    expect(second.body).toMatchObject({ type: 'oAuth2ResourceOwnerPassword', usage: 'server' });
    expect(second.body.id).not.toBe(first.body.id);
    const server = (await authRows(id)).filter((r) => r.usage === 'server');
    expect(server).toHaveLength(1);
    expect(server[0]!.type).toBe('oAuth2ResourceOwnerPassword');
    expect(server[0]!.revision).toBeGreaterThan(before!.revision);
    expect(server[0]!.publicData).toMatchObject({ bodyFormat: 'applicationJson', username: 'integration' });
    // Cached tokens are reset only by deleting the connector (docs/connector-auth.md rule 4): both usages keep theirs.
    expect((await tokensOf(id)).map((t) => t.usage).sort()).toEqual(['browser', 'server']);

    // Setting the same type again still takes a new revision.
    await call('PUT', `${base}/${id}/auth/oauth-resource-owner-password`, {
      ...owner,
      body: validBodies('server')['oauth-resource-owner-password'],
    });
    const again = (await authRows(id)).find((r) => r.usage === 'server')!;
    expect(again.revision).toBeGreaterThan(server[0]!.revision);

    const audit = (await trailOf(id)).filter((entry) => entry.action === 'connector.auth.set');
    expect(
      audit.map(({ actor, target, changes }) => ({
        actor: actor.subject,
        target: target.type,
        usage: changes.usage?.to,
        type: changes.type?.to,
      })),
    ).toEqual([
      { actor: USERS.owner, target: 'connectorAuthorization', usage: 'server', type: 'staticKey' },
      {
        actor: USERS.owner,
        target: 'connectorAuthorization',
        usage: 'browser',
        type: 'oAuth2ClientCredentials',
      },
      {
        actor: USERS.owner,
        target: 'connectorAuthorization',
        usage: 'server',
        type: 'oAuth2ResourceOwnerPassword',
      },
      {
        actor: USERS.owner,
        target: 'connectorAuthorization',
        usage: 'server',
        type: 'oAuth2ResourceOwnerPassword',
      },
    ]);
  });

  it('deletes one usage, keeping its cached tokens (204, also when none is set); authUsage is required', async () => {
    const id = await publish();
    await call('PUT', `${base}/${id}/auth/static`, { ...owner, body: validBodies('server').static });
    await call('PUT', `${base}/${id}/auth/static`, { ...owner, body: validBodies('browser').static });
    await addToken(id, 'server', (await authRows(id)).find((r) => r.usage === 'server')!.revision);

    expectFields(await call('DELETE', `${base}/${id}/auth`, owner), ['authUsage']);
    expectFields(await call('DELETE', `${base}/${id}/auth?authUsage=both`, owner), ['authUsage']);
    expectFields(await call('DELETE', `${base}/${id}/auth?authUsage=server&authUsage=browser`, owner), [
      'authUsage',
    ]);
    const deleted = await call('DELETE', `${base}/${id}/auth?authUsage=server`, owner);
    expect(deleted.status).toBe(204);
    expect((await authRows(id)).map((r) => r.usage)).toEqual(['browser']);
    expect((await tokensOf(id)).map((t) => t.usage)).toEqual(['server']);
    expect((await call('DELETE', `${base}/${id}/auth?authUsage=server`, owner)).status).toBe(204);
    const deletions = (await trailOf(id)).filter((entry) => entry.action === 'connector.auth.delete');
    // The second DELETE removed nothing, and is in the trail too (every accepted write is), with no changes.
    expect(deletions.map((entry) => entry.changes.type)).toEqual([{ from: 'staticKey' }, undefined]);
    expect((await call<Summary[]>('GET', `${base}/${id}/auth`, owner)).body.map((a) => a.usage)).toEqual([
      'browser',
    ]);
  });

  it('answers 400 for a type outside supportedAuth and for authorization code with server usage', async () => {
    const id = await publish(['staticKey', 'oAuth2AuthorizationCode']);
    const notSupported = expectFields(
      await call('PUT', `${base}/${id}/auth/oauth-client-credentials`, {
        ...owner,
        body: validBodies('server')['oauth-client-credentials'],
      }),
      ['type'],
    );
    expect(notSupported.detail).toContain('supportedAuth');
    const serverCode = expectFields(
      await call('PUT', `${base}/${id}/auth/oauth-authorization-code`, {
        ...owner,
        body: validBodies('server')['oauth-authorization-code'],
      }),
      ['usage'],
    );
    expect(serverCode.detail).toContain('browser');
    expect(await authRows(id)).toEqual([]);
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['static', { key: 'X-Api-Key', value: 'v' }, ['usage']],
    ['static', { usage: 'desktop', key: 'X-Api-Key', value: 'v' }, ['usage']],
    ['static', { usage: 'server', name: '', key: 'X-Api-Key', value: 'v' }, ['name']],
    ['static', { usage: 'server', key: 'Bad Header', value: 'a\r\nb', extra: 1 }, ['key', 'value', 'extra']],
    ['static', { usage: 'server' }, ['key', 'value']],
    ['static', { usage: 'server', key: 'Bad Header', value: SECRETS.staticValue }, ['key']],
    [
      'oauth-resource-owner-password',
      { usage: 'server', clientSecret: SECRETS.ropcSecret, password: SECRETS.ropcPassword, passwd: 'x' },
      ['clientId', 'username', 'tokenEndpoint', 'passwd'],
    ],
    [
      'oauth-client-credentials',
      { usage: 'server', clientSecret: 1, tokenEndpoint: 'ftp://x', scopes: 'a' },
      ['clientId', 'clientSecret', 'tokenEndpoint', 'scopes'],
    ],
    [
      'oauth-authorization-code',
      {
        usage: 'browser',
        clientId: 'c',
        clientSecret: 's',
        authorizationServerMetadata: {
          authorization_endpoint: 'not a url',
          token_endpoint_auth_methods_supported: ['private_key_jwt'],
          issuer: 'x',
        },
        specCustomization: { codeParameterName: 'a b', requestContentType: 'xml' },
      },
      [
        'authorizationServerMetadata.authorization_endpoint',
        'authorizationServerMetadata.token_endpoint',
        'authorizationServerMetadata.token_endpoint_auth_methods_supported[0]',
        'authorizationServerMetadata.issuer',
        'specCustomization.codeParameterName',
        'specCustomization.requestContentType',
      ],
    ],
    [
      'oauth-resource-owner-password',
      {
        usage: 'server',
        clientId: 'c',
        clientSecret: 's',
        username: '',
        bodyFormat: 'multipart',
        tokenEndpoint: 'https://auth.acme.example/token',
      },
      ['username', 'password', 'bodyFormat'],
    ],
    [
      'oauth-jwt-bearer',
      {
        usage: 'server',
        tokenEndpoint: 'https://auth.acme.example/token',
        signatureConfig: { algorithm: 'HS256', privateKey: 'not a pem' },
        jwtPayload: { nested: { no: true } },
        jwtTokenParamName: 'a b',
        requestBodyParams: { n: [1] },
      },
      [
        'signatureConfig.algorithm',
        'signatureConfig.privateKey',
        'jwtPayload.nested',
        'jwtTokenParamName',
        'requestBodyParams.n',
      ],
    ],
  ];
  let invalidTarget: Promise<string> | undefined;
  it.each(invalid)('answers 400 naming each bad field of %s data %#', async (kind, body, fields) => {
    // One connector for every case: none of them may leave a configuration behind.
    invalidTarget ??= publish();
    const id = await invalidTarget;
    expectFields(await call('PUT', `${base}/${id}/auth/${kind}`, { ...owner, body }), fields);
    expect(await authRows(id)).toEqual([]);
  });

  it('reports envelope, data and rule problems together, and refuses a body that is not an object', async () => {
    const id = await publish(['staticKey']);
    expectFields(
      await call('PUT', `${base}/${id}/auth/oauth-authorization-code`, {
        ...owner,
        body: { usage: 'server', clientId: 'c' },
      }),
      ['usage', 'type', 'clientSecret', 'authorizationServerMetadata'],
    );
    expectFields(await call('PUT', `${base}/${id}/auth/static`, { ...owner, body: ['server'] }), ['body']);
    expectProblem(
      await call('PUT', `${base}/${id}/auth/basic`, { ...owner, body: validBodies('server').static }),
      404,
    );
    expectProblem(
      await call('PUT', `${base}/00000000-0000-4000-8000-00000000abcd/auth/static`, {
        ...owner,
        body: validBodies('server').static,
      }),
      404,
    );
    expectProblem(await call('GET', `${base}/not-a-guid/auth`, owner), 404);
  });

  it('keeps shared headers sealed and answers their names only', async () => {
    const id = await publish();
    const set = await call<{ names: string[] }>('PUT', `${base}/${id}/shared-headers`, {
      ...owner,
      body: { headers: { 'X-Tenant': SECRETS.sharedHeader, 'X-Region': 'eu' } },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ names: ['X-Region', 'X-Tenant'] });
    const [stored] = await s.tp.database.db
      .select()
      .from(schema.connectorSharedHeaders)
      .where(eq(schema.connectorSharedHeaders.connectorId, id));
    expect(stored!.headers).not.toContain(SECRETS.sharedHeader);
    expect(JSON.parse(secrets.open(stored!.headers))).toEqual({
      'X-Tenant': SECRETS.sharedHeader,
      'X-Region': 'eu',
    });
    const read = await call('GET', `${base}/${id}/shared-headers`, { user: USERS.contentUser });
    expect(read.body).toEqual({ names: ['X-Region', 'X-Tenant'] });

    expectFields(
      await call('PUT', `${base}/${id}/shared-headers`, {
        ...owner,
        body: { headers: { 'Bad Name': 'x', 'X-Ok': 'a\nb' } },
      }),
      ['headers.Bad Name', 'headers.X-Ok'],
    );
    expectFields(
      await call('PUT', `${base}/${id}/shared-headers`, {
        ...owner,
        body: { headers: { 'X-A': '1', 'x-a': '2' } },
      }),
      ['headers.x-a'],
    );
    expectFields(await call('PUT', `${base}/${id}/shared-headers`, { ...owner, body: {} }), ['headers']);

    const cleared = await call('PUT', `${base}/${id}/shared-headers`, { ...owner, body: { headers: {} } });
    expect(cleared.body).toEqual({ names: [] });
    expect((await call('GET', `${base}/${id}/shared-headers`, owner)).body).toEqual({ names: [] });
  });

  it('deleting a connector removes its authorizations, shared headers and tokens, and keeps the audit', async () => {
    const id = await publish();
    await call('PUT', `${base}/${id}/auth/static`, { ...owner, body: validBodies('server').static });
    await call('PUT', `${base}/${id}/shared-headers`, { ...owner, body: { headers: { 'X-A': '1' } } });
    await addToken(id, 'server', (await authRows(id))[0]!.revision);
    expect((await call('DELETE', `${base}/${id}`, owner)).status).toBe(204);
    expect(await authRows(id)).toEqual([]);
    expect(await tokensOf(id)).toEqual([]);
    const headers = await s.tp.database.db
      .select()
      .from(schema.connectorSharedHeaders)
      .where(eq(schema.connectorSharedHeaders.connectorId, id));
    expect(headers).toEqual([]);
    expect((await trailOf(id)).map((entry) => entry.action)).toEqual([
      'connector.publish',
      'connector.auth.set',
      'connector.sharedHeaders.set',
      'connector.delete',
    ]);
  });

  it('never put a secret in any answer or log line, failures included', () => {
    const text = `${responses.join('\n')}\n${s.tp.logs.join('\n')}`;
    for (const [name, secret] of Object.entries(SECRETS)) {
      const needle = name === 'privateKey' ? secret.split('\n')[1]! : secret;
      expect(text.includes(needle), name).toBe(false);
    }
  });
});
