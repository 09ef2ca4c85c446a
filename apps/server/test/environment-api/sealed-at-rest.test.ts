import { generateKeyPairSync } from 'node:crypto';
import { createSecretBox, importDataFile, loadOrCreateSecretsKey, queryRows, schema } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { connectorBody, envPath } from './support.ts';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** Values planted where an older release stored them in clear, and in a write that fails. */
const PLANTED = {
  legacyClaim: 'legacy-claim-value-51f2a9',
  legacyParam: 'legacy-body-secret-0c7d3e',
  failedName: 'refuse-planted-name-8e4b61',
  failedClaim: 'failed-claim-value-2a9c04',
  failedParam: 'failed-body-secret-d35e77',
};

const base = `${envPath('acme-prod')}/connectors`;

/** Every row of every table, as text: what a dump of the database would hold. */
const dumpOf = async (tp: TestPlatform): Promise<string> => {
  const tables = await queryRows<{ name: string }>(
    tp.database.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
  );
  const rows = await Promise.all(
    tables.map(({ name }) =>
      queryRows<{ row: string }>(tp.database.db, sql.raw(`select t::text as row from "${name}" t`)),
    ),
  );
  return rows
    .flat()
    .map((r) => r.row)
    .join('\n');
};

describe.each(await testBackends())('JWT bearer fields sealed at rest, on $name', (backend) => {
  let tp: TestPlatform;
  let id: string;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await tp.call(path, {
      method,
      token: await tp.token(USERS.owner),
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return { status: response.status, text: await response.text() };
  };
  const jwtBody = (claim: string, param: string, name?: string) => ({
    usage: 'server',
    ...(name ? { name } : {}),
    tokenEndpoint: 'https://auth.acme.example/token',
    signatureConfig: { algorithm: 'RS256', privateKey: PRIVATE_KEY },
    jwtPayload: { iss: 'connector', sub: claim },
    requestBodyParams: { client_id: 'jwt-client', client_secret: param },
  });

  beforeAll(async () => {
    tp = await startTestPlatform(backend);
    await importDataFile(tp.database, fixture(new Date()));
    const published = await call('POST', base, connectorBody());
    expect(published.status).toBe(201);
    id = (JSON.parse(published.text) as { id: string }).id;
  });
  afterAll(() => tp?.close());

  it('a row an older release wrote in clear is sealed at the next start', async () => {
    expect((await call('PUT', `${base}/${id}/auth/oauth-jwt-bearer`, jwtBody('new', 'new'))).status).toBe(
      200,
    );
    // What an older release stored: the claims and body parameters in clear, the private key alone sealed.
    const secrets = createSecretBox(
      tp.database.databaseUrl
        ? Buffer.alloc(32, 7).toString('base64')
        : await loadOrCreateSecretsKey(tp.database.dataDir),
    );
    const [row] = await tp.database.db
      .select()
      .from(schema.connectorAuth)
      .where(eq(schema.connectorAuth.connectorId, id));
    await tp.database.db
      .update(schema.connectorAuth)
      .set({
        publicData: {
          ...row?.publicData,
          jwtPayload: { iss: 'connector', sub: PLANTED.legacyClaim },
          requestBodyParams: { client_secret: PLANTED.legacyParam },
        },
        secretData: secrets.seal(JSON.stringify({ 'signatureConfig.privateKey': PRIVATE_KEY })),
      })
      .where(eq(schema.connectorAuth.connectorId, id));
    expect(await dumpOf(tp)).toContain(PLANTED.legacyParam);

    // Restart on the same database.
    await tp.platform.close();
    await tp.issuer.close();
    tp = await startTestPlatform(backend, {}, tp.database);

    const dump = await dumpOf(tp);
    expect(dump).toContain(id);
    expect(dump).not.toContain(PLANTED.legacyClaim);
    expect(dump).not.toContain(PLANTED.legacyParam);
    const [sealed] = await tp.database.db
      .select()
      .from(schema.connectorAuth)
      .where(eq(schema.connectorAuth.connectorId, id));
    expect(JSON.parse(secrets.open(sealed?.secretData ?? ''))).toEqual({
      'signatureConfig.privateKey': PRIVATE_KEY,
      jwtPayload: { iss: 'connector', sub: PLANTED.legacyClaim },
      requestBodyParams: { client_secret: PLANTED.legacyParam },
    });
    expect(sealed?.revision).toBe(row?.revision);
    const listed = await call('GET', `${base}/${id}/auth`);
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('legacy-');
    expect(tp.logs.join('\n')).not.toContain('legacy-');
  });

  it('a write the database refuses logs the failed query without its parameters, and answers 500 without them', async () => {
    // A constraint the write breaks: the database refuses the insert with every value of the row as a parameter.
    await tp.database.db.execute(
      sql.raw(`alter table connector_auth add constraint t_refuse_planted check (name not like 'refuse-%')`),
    );
    try {
      const failed = await call(
        'PUT',
        `${base}/${id}/auth/oauth-jwt-bearer`,
        jwtBody(PLANTED.failedClaim, PLANTED.failedParam, PLANTED.failedName),
      );
      expect(failed.status).toBe(500);
      const logs = tp.logs.join('\n');
      expect(logs).toContain('Failed query: insert into \\"connector_auth\\"');
      expect(logs).toContain('23514');
      for (const value of [PLANTED.failedName, PLANTED.failedClaim, PLANTED.failedParam, 'BEGIN PRIVATE KEY'])
        expect(`${logs}\n${failed.text}`).not.toContain(value);
      expect(logs).not.toMatch(/params:|Failing row/);
      expect(await dumpOf(tp)).not.toContain(PLANTED.failedParam);
    } finally {
      await tp.database.db.execute(sql.raw('alter table connector_auth drop constraint t_refuse_planted'));
    }
  });
});
