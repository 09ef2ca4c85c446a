/**
 * The rotation runbook of docs/deployment.md on three replicas sharing one PostgreSQL, under proxied load the whole
 * time: every replica restarted one by one with `new:…,old:…` (each taken out of service while it restarts, as a
 * load balancer drains it), `platform-server rotate-secrets` run, then every replica restarted with `new` alone.
 * No proxied request fails. Skipped without PostgreSQL (TEST_DATABASE_URL).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS } from './support/fixture.ts';
import { startTestIssuer, type TestIssuer } from './support/issuer.ts';
import type { Listening } from './support/loopback-servers.ts';
import {
  BOTH_KEYS,
  ENVIRONMENT_PATH,
  NEW_KEY,
  OLD_KEY,
  proxyLoad,
  runCommand,
  SECRET_VALUE,
  startKeyedTarget,
  writeSealedTokens,
} from './support/rotation-world.ts';
import { seededDatabase } from './support/seeded.ts';
import { type ServerChild, startServerChild } from './support/server-child.ts';
import { publishStaticKeyConnector } from './support/static-connector.ts';

const postgres = (await testBackends()).find((backend) => backend.name === 'postgres');
const TOKENS = 1000;
const SEALED = 1 + 2 * TOKENS;

describe.skipIf(!postgres)('rotating SECRETS_KEY on three replicas under load', () => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let target: Listening;
  let authorization: string;
  const folders: string[] = [];
  const replicas: (ServerChild | undefined)[] = [];
  /** The replicas a load balancer sends to: all but one being restarted. */
  const inService: string[] = [];

  const start = (index: number, secretsKey: string) =>
    startServerChild({
      dataDir: folders[index] as string,
      databaseUrl: database.databaseUrl,
      issuerUrl: issuer.url,
      env: { SECRETS_KEY: secretsKey },
    });

  /** Drains replica `index`, restarts it with `secretsKey`, and puts it back in service once it answers. */
  const restart = async (index: number, secretsKey: string) => {
    const old = replicas[index] as ServerChild;
    inService.splice(inService.indexOf(old.url), 1);
    // Requests already sent to it finish: the server answers those in flight before it stops.
    await old.stop();
    const fresh = await start(index, secretsKey);
    replicas[index] = fresh;
    inService.push(fresh.url);
  };

  beforeAll(async () => {
    database = await seededDatabase(postgres!);
    issuer = await startTestIssuer();
    target = await startKeyedTarget();
    authorization = `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'], expiresIn: 900 })}`;
    for (let index = 0; index < 3; index++) folders.push(await mkdtemp(join(tmpdir(), 'rotation-replica-')));
    for (let index = 0; index < 3; index++) {
      replicas[index] = await start(index, `old:${OLD_KEY}`);
      inService.push((replicas[index] as ServerChild).url);
    }
  }, 180_000);

  afterAll(async () => {
    for (const replica of replicas) await replica?.stop();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
    await target?.close();
    await issuer?.close();
    await database?.close();
  });

  it('keeps every proxied request answered through both restarts and the rotation', async () => {
    const connectorId = await publishStaticKeyConnector(`${inService[0]}${ENVIRONMENT_PATH}`, authorization, {
      name: 'rotated',
      key: 'X-Api-Key',
      value: SECRET_VALUE,
    });
    await writeSealedTokens(database, connectorId, TOKENS, `old:${OLD_KEY}`);
    const load = proxyLoad(() => [...inService], connectorId, authorization, target.url, 3);
    try {
      for (let index = 0; index < 3; index++) await restart(index, BOTH_KEYS);
      const rotation = runCommand(['rotate-secrets', '--batch-size', '200'], {
        DATA_DIR: folders[0] as string,
        DATABASE_URL: database.databaseUrl ?? '',
        AUTH_ISSUER: issuer.url,
        SECRETS_KEY: BOTH_KEYS,
      });
      expect(await rotation.exited).toBe(0);
      expect(rotation.output()).toContain(`Sealed values per key id:\n  new  ${SEALED}\n  old  0\n`);
      for (let index = 0; index < 3; index++) await restart(index, `new:${NEW_KEY}`);
    } finally {
      await load.stop();
    }
    expect(load.failures).toEqual([]);
    expect(load.sent()).toBeGreaterThan(100);
  }, 600_000);
});
