/**
 * Rotating SECRETS_KEY as docs/deployment.md tells an operator, through the real bins: values sealed under `old`,
 * a start without it refused, the server restarted with `new:…,old:…` serving them, `platform-server
 * rotate-secrets` killed (-9) after its first batches and run again while proxied requests go on (none fails),
 * then run once more with nothing left to do, and the server started with `new` alone. Both backends: on the
 * embedded database the running server does the rotation for the command.
 */
import { type TestBackend, type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS } from './support/fixture.ts';
import { startTestIssuer, type TestIssuer } from './support/issuer.ts';
import type { Listening } from './support/loopback-servers.ts';
import {
  BOTH_KEYS,
  NEW_KEY,
  OLD_KEY,
  progressOf,
  proxyLoad,
  readSealedTokens,
  rotationEntries,
  runCommand,
  SECRET_VALUE,
  sealedValuesOf,
  startKeyedTarget,
  writeSealedTokens,
} from './support/rotation-world.ts';
import { seededDatabase } from './support/seeded.ts';
import { type ServerChild, startServerChild } from './support/server-child.ts';
import { publishStaticKeyConnector } from './support/static-connector.ts';

/** Cached tokens written under the old key: two sealed values each. */
const TOKENS = 2500;
/** The connector's authorization and the tokens' access and refresh tokens. */
const SEALED = 1 + 2 * TOKENS;
/**
 * Values per batch: on the embedded database, batches run in the server's process within a millisecond or two, so
 * smaller ones leave the kill below time to land mid-run.
 */
const batchFor = (backend: TestBackend) => (backend.name === 'pglite' ? '20' : '200');

const backends = await testBackends();

describe.each(backends.map((backend): [string, TestBackend] => [backend.name, backend]))(
  'rotating SECRETS_KEY (%s)',
  (_name, backend) => {
    let database: TestDatabase;
    let issuer: TestIssuer;
    let target: Listening;
    let authorization: string;
    let metricsAuthorization: string;
    let connectorId: string;
    let server: ServerChild | undefined;

    const databaseEnv = () => ({
      DATA_DIR: database.dataDir,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    });
    const start = (secretsKey: string) =>
      startServerChild({
        dataDir: database.dataDir,
        databaseUrl: database.databaseUrl,
        issuerUrl: issuer.url,
        env: { SECRETS_KEY: secretsKey },
      });
    const rotate = (secretsKey: string) =>
      runCommand(['rotate-secrets', '--batch-size', batchFor(backend)], {
        ...databaseEnv(),
        AUTH_ISSUER: issuer.url,
        SECRETS_KEY: secretsKey,
      });
    const metrics = async (url: string) =>
      sealedValuesOf(
        await (await fetch(`${url}/metrics`, { headers: { authorization: metricsAuthorization } })).text(),
      );
    const proxied = async (url: string) =>
      (
        await fetch(`${url}/grafx/api/v1/environment/acme-prod/connectors/${connectorId}/proxy`, {
          headers: { authorization, 'x-grafx-proxy-external-url': `${target.url}/items` },
        })
      ).status;

    beforeAll(async () => {
      database = await seededDatabase(backend);
      issuer = await startTestIssuer();
      target = await startKeyedTarget();
      authorization = `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'], expiresIn: 900 })}`;
      metricsAuthorization = `Bearer ${await issuer.sign({ sub: 'ops|scraper', roles: ['platform:metrics'], expiresIn: 900 })}`;
      const first = await start(`old:${OLD_KEY}`);
      try {
        connectorId = await publishStaticKeyConnector(
          `${first.url}/grafx/api/v1/environment/acme-prod`,
          authorization,
          { name: 'rotated', key: 'X-Api-Key', value: SECRET_VALUE },
        );
        expect(await proxied(first.url)).toBe(200);
      } finally {
        await first.stop();
      }
      await writeSealedTokens(database, connectorId, TOKENS, `old:${OLD_KEY}`);
    }, 180_000);

    afterAll(async () => {
      await server?.stop();
      await target?.close();
      await issuer?.close();
      await database?.close();
    });

    it('refuses a start and a rotation without the old key, naming its id and count', async () => {
      // One after the other: on the embedded database each takes the data folder's lock.
      for (const run of [
        () =>
          runCommand(['start'], {
            ...databaseEnv(),
            PORT: '0',
            AUTH_ISSUER: issuer.url,
            SECRETS_KEY: `new:${NEW_KEY}`,
          }),
        () => rotate(`new:${NEW_KEY}`),
      ]) {
        const command = run();
        expect(await command.exited).toBe(2);
        expect(command.output()).toContain(
          `Configuration error: ${SEALED} stored secret values are sealed under key ids SECRETS_KEY does not hold: old (${SEALED} values). Add those keys back to SECRETS_KEY`,
        );
        for (const secret of [OLD_KEY, NEW_KEY, SECRET_VALUE, 'access-1'])
          expect(command.output()).not.toContain(secret);
      }
    }, 120_000);

    it('serves the old values with new:…,old:… and counts them per key id on /metrics', async () => {
      server = await start(BOTH_KEYS);
      expect(await proxied(server.url)).toBe(200);
      expect(await metrics(server.url)).toEqual({ new: 0, old: SEALED });
    }, 120_000);

    it('re-seals everything under the new key, resuming after a kill -9, while proxied requests go on', async () => {
      const url = server!.url;
      const load = proxyLoad(() => [url], connectorId, authorization, target.url);
      try {
        const killed = rotate(BOTH_KEYS);
        // Killed once its first batches have committed, as a crash or an impatient operator would.
        for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
          if (progressOf(killed.stderrLines()).some((progress) => progress.done >= 400)) break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        killed.child.kill('SIGKILL');
        expect(await killed.exited).toBeNull();
        const [firstLine] = progressOf(killed.stderrLines());
        expect(firstLine).toEqual({ done: 0, total: SEALED });

        const resumed = rotate(BOTH_KEYS);
        expect(await resumed.exited).toBe(0);
        const progress = progressOf(resumed.stderrLines());
        // It went on from where the killed run stopped: what was committed was not done again.
        expect(progress[0]?.done).toBe(0);
        expect(progress[0]?.total).toBeGreaterThan(0);
        expect(progress[0]?.total).toBeLessThanOrEqual(SEALED - 400);
        expect(progress.at(-1)?.done).toBe(progress[0]?.total);
        expect(resumed.output()).toContain(`Sealed values per key id:\n  new  ${SEALED}\n  old  0\n`);
        for (const secret of [OLD_KEY, NEW_KEY, SECRET_VALUE, 'access-1'])
          expect(resumed.output()).not.toContain(secret);

        const again = rotate(BOTH_KEYS);
        expect(await again.exited).toBe(0);
        expect(again.output()).toContain(
          `Re-sealed 0 values under key new.\nSealed values per key id:\n  new  ${SEALED}\n  old  0\n`,
        );
      } finally {
        await load.stop();
      }
      expect(load.failures).toEqual([]);
      expect(load.sent()).toBeGreaterThan(20);
      // The gauge counts again after five seconds.
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      expect(await metrics(url)).toEqual({ new: SEALED, old: 0 });
    }, 300_000);

    it('leaves every value opening to what it was under the new key alone, and serves with it', async () => {
      await server?.stop();
      server = undefined;
      const tokens = await readSealedTokens(database, `new:${NEW_KEY}`);
      expect(tokens.sealed).toHaveLength(2 * TOKENS);
      expect(tokens.sealed.every((value) => value.startsWith('v2.new.'))).toBe(true);
      expect(new Set(tokens.opened)).toEqual(
        new Set(Array.from({ length: TOKENS }, (_, i) => [`access-${i}`, `refresh-${i}`]).flat()),
      );
      // One audit entry per run that finished (the killed one left none), with the counts before and after.
      const entries = await rotationEntries(database);
      expect(entries).toHaveLength(2);
      const [resumed, again] = entries as [(typeof entries)[0], (typeof entries)[0]];
      expect(resumed).toMatchObject({
        outcome: 'success',
        target: { type: 'secrets', id: 'new' },
        actor: 'platform-server',
      });
      expect(resumed.changes.sealedValues).toEqual({
        from: { new: expect.any(Number), old: expect.any(Number) },
        to: { new: SEALED },
      });
      expect(resumed.changes.resealed?.to).toBeLessThan(SEALED);
      expect(again.changes).toEqual({
        sealedValues: { from: { new: SEALED }, to: { new: SEALED } },
        resealed: { to: 0 },
      });
      server = await start(`new:${NEW_KEY}`);
      expect(await proxied(server.url)).toBe(200);
      expect(await metrics(server.url)).toEqual({ new: SEALED });
    }, 120_000);
  },
);
