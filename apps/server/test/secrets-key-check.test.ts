/**
 * SECRETS_KEY against the secrets already stored, as an operator meets it: the real bin restarted on the same data
 * with another key says at start, in one error line, how many secrets it cannot open and which key sealed them,
 * starts anyway (the way back is to set them again), and the connector that needs one answers 500 until then.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type TestBackend, type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from './support/issuer.ts';
import { startServerChild } from './support/server-child.ts';
import { publishStaticKeyConnector } from './support/static-connector.ts';

const SEALING_KEY = Buffer.alloc(32, 7).toString('base64');
const OTHER_KEY = Buffer.alloc(32, 9).toString('base64');
/** secretKeyId of each: the first 8 hex digits of sha256 of the key's bytes. */
const keyIdOf = async (key: string) =>
  Buffer.from(await crypto.subtle.digest('SHA-256', Buffer.from(key, 'base64')))
    .toString('hex')
    .slice(0, 8);

const backends = await testBackends();
const PROXY_BIN = fileURLToPath(new URL('../../../packages/proxy/bin/connector-proxy.js', import.meta.url));

/** The `connector-proxy` bin's output until it listens (or 30 s), then SIGTERM. */
const proxyStartOutput = async (env: Record<string, string>): Promise<string> => {
  const child = spawn(process.execPath, [PROXY_BIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit');
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && child.exitCode === null; ) {
    if (output.includes('connector proxy listening')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (child.exitCode === null) child.kill('SIGTERM');
  await exited;
  return output;
};

describe.each(backends.map((backend): [string, TestBackend] => [backend.name, backend]))(
  'a restart with another SECRETS_KEY (%s)',
  (_name, backend) => {
    let database: TestDatabase;
    let issuer: TestIssuer;
    let authorization: string;
    let proxyPath: string;

    const start = (key: string) =>
      startServerChild({
        dataDir: database.dataDir,
        databaseUrl: database.databaseUrl,
        issuerUrl: issuer.url,
        // The demo data: an environment (acme-prod) the demo owner may publish in.
        env: { SECRETS_KEY: key, LOG_LEVEL: 'warn', DEMO_DATA: 'true' },
      });

    beforeAll(async () => {
      database = await backend.fresh();
      await database.detach();
      issuer = await startTestIssuer();
      authorization = `Bearer ${await issuer.sign({ sub: 'demo|owner', roles: ['platform:read', 'platform:write'], expiresIn: 600 })}`;
      const server = await start(SEALING_KEY);
      try {
        const environment = `${server.url}/grafx/api/v1/environment/acme-prod`;
        const id = await publishStaticKeyConnector(environment, authorization, {
          name: 'sealed',
          key: 'X-Api-Key',
          value: 'kept-secret',
        });
        proxyPath = `/grafx/api/v1/environment/acme-prod/connectors/${id}/proxy`;
        expect(server.output.join('')).not.toMatch(/does not open/);
      } finally {
        await server.stop();
      }
    }, 120_000);

    afterAll(async () => {
      await issuer?.close();
      await database?.close();
    });

    it('says so at start in one error line, starts, and answers 500 for the secret it cannot open', async () => {
      const server = await start(OTHER_KEY);
      try {
        const lines = server.output
          .join('')
          .split('\n')
          .filter((line) => line.includes('does not open'));
        expect(lines).toHaveLength(1);
        const line = JSON.parse(lines[0]!) as Record<string, unknown>;
        expect(line).toMatchObject({
          level: 50,
          keyId: await keyIdOf(OTHER_KEY),
          sealedUnder: [await keyIdOf(SEALING_KEY)],
        });
        expect(line.secrets).toBe(line.stored);
        expect(line.stored).toBeGreaterThanOrEqual(1);
        expect(lines[0]).not.toContain(OTHER_KEY);
        expect(lines[0]).not.toContain('kept-secret');
        const proxied = await fetch(`${server.url}${proxyPath}`, {
          headers: { authorization, 'x-grafx-proxy-external-url': 'http://127.0.0.1:9/items' },
        });
        expect(proxied.status).toBe(500);
        expect(await proxied.text()).not.toContain('kept-secret');
      } finally {
        await server.stop();
      }
    }, 120_000);

    it.skipIf(backend.name !== 'postgres')(
      'is said by the connector-proxy bin at its start too',
      async () => {
        const env = { DATABASE_URL: database.databaseUrl ?? '', AUTH_ISSUER: issuer.url };
        const other = await proxyStartOutput({ ...env, SECRETS_KEY: OTHER_KEY });
        expect(other).toContain('connector proxy listening');
        const lines = other.split('\n').filter((line) => line.includes('does not open'));
        expect(lines).toHaveLength(1);
        expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, sealedUnder: [await keyIdOf(SEALING_KEY)] });
        const same = await proxyStartOutput({ ...env, SECRETS_KEY: SEALING_KEY });
        expect(same).toContain('connector proxy listening');
        expect(same).not.toContain('does not open');
      },
      90_000,
    );

    it('says nothing once it runs with the key that sealed them again', async () => {
      const server = await start(SEALING_KEY);
      try {
        expect(server.output.join('')).not.toMatch(/does not open/);
      } finally {
        await server.stop();
      }
    }, 120_000);
  },
);
