import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countSealedValues,
  createSecretBox,
  findUnopenedSecrets,
  insertConnector,
  keyFingerprint,
  queryRows,
  schema,
  sealClearAuthObjects,
  seedDemoData,
  setConnectorAuth,
} from '../src/index.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';

const KEY_A = Buffer.alloc(32, 1).toString('base64');
const KEY_B = Buffer.alloc(32, 2).toString('base64');

describe.each(await testBackends())(
  'secrets sealed under a key the server does not hold, on $name',
  (backend) => {
    let database: TestDatabase;
    let authId: string;
    beforeEach(async () => {
      database = await backend.fresh();
      await seedDemoData(database, new Date());
      const [environment] = await queryRows<{ id: number }>(
        database.db,
        sql`select id from environments where technical_name = 'acme-prod'`,
      );
      const connector = await insertConnector(database.db, {
        id: randomUUID(),
        environmentId: environment!.id,
        name: 'jwt',
        description: null,
        version: '1.0.0',
        type: 'data',
        iconUrl: null,
        options: {},
        script: 'export default class Connector {}',
        apiVersion: '1.14.0',
        allowedDomains: ['example.com'],
        forwardedHeaders: false,
        supportedAuth: ['oAuth2JwtBearer'],
        enabled: true,
        now: new Date(),
      });
      authId = randomUUID();
      // As an older version stored it: jwtPayload in the clear public part, the private key sealed under key A.
      await setConnectorAuth(database.db, {
        id: authId,
        connectorId: connector.id,
        usage: 'server',
        type: 'oAuth2JwtBearer',
        name: 'jwt',
        publicData: { tokenEndpoint: 'https://idp.example.com/token', jwtPayload: { iss: 'me' } },
        secretData: createSecretBox(KEY_A).seal(JSON.stringify({ signatureConfig: { privateKey: 'k' } })),
        now: new Date(),
      });
    });
    afterEach(() => database.close());

    const row = async () =>
      (await database.db.select().from(schema.connectorAuth).where(eq(schema.connectorAuth.id, authId)))[0]!;

    it('are counted by the key id that sealed them, and none when SECRETS_KEY holds it', async () => {
      expect(await findUnopenedSecrets(database.db, createSecretBox(KEY_A))).toBeUndefined();
      expect(
        await findUnopenedSecrets(database.db, createSecretBox(`new:${KEY_B},default:${KEY_A}`)),
      ).toBeUndefined();
      const unopened = await findUnopenedSecrets(database.db, createSecretBox(`new:${KEY_B}`));
      expect(unopened).toMatchObject({ missing: { default: 1 }, mismatched: [] });
      expect(unopened?.message).toMatch(
        /^1 stored secret value is sealed under key ids SECRETS_KEY does not hold: default \(1 value\)\. Add those keys back/,
      );
      expect(unopened?.message).toContain('rotate-secrets');
    });

    it('say which key id SECRETS_KEY holds with other bytes than those that sealed', async () => {
      const unopened = await findUnopenedSecrets(database.db, createSecretBox(`default:${KEY_B}`));
      expect(unopened).toMatchObject({ missing: {}, mismatched: ['default'] });
      expect(unopened?.message).toMatch(
        /key default is not the key that sealed the values stored under that id/,
      );
    });

    it('name a value sealed before key ids by its key fingerprint, or by the configured key with it', async () => {
      const legacy = `v1.${keyFingerprint(Buffer.from(KEY_A, 'base64'))}.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA`;
      await database.db
        .update(schema.connectorAuth)
        .set({ secretData: legacy })
        .where(eq(schema.connectorAuth.id, authId));
      expect(await countSealedValues(database.db, createSecretBox(`a:${KEY_A}`))).toEqual({ a: 1 });
      expect(await findUnopenedSecrets(database.db, createSecretBox(KEY_B))).toMatchObject({
        missing: { [keyFingerprint(Buffer.from(KEY_A, 'base64'))]: 1 },
      });
    });

    it('keep their clear fields until a start with the key that sealed them moves them', async () => {
      expect(await sealClearAuthObjects(database.db, createSecretBox(KEY_B))).toBe(0);
      expect((await row()).publicData).toHaveProperty('jwtPayload');
      expect(await sealClearAuthObjects(database.db, createSecretBox(KEY_A))).toBe(1);
      const moved = await row();
      expect(moved.publicData).not.toHaveProperty('jwtPayload');
      expect(JSON.parse(createSecretBox(KEY_A).open(moved.secretData))).toEqual({
        signatureConfig: { privateKey: 'k' },
        jwtPayload: { iss: 'me' },
      });
    });
  },
);
