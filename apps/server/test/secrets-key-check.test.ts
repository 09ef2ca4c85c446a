/**
 * SECRETS_KEY against the secrets already stored, as an operator meets it: the real bins restarted on the same data
 * with keys that do not open them refuse to start, in one line naming the key ids and how many values each seals
 * (never a key or a value) and what to do; with the key that sealed them they start again.
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
const BIN = fileURLToPath(new URL('../bin/platform-server.js', import.meta.url));

const backends = await testBackends();
const PROXY_BIN = fileURLToPath(new URL('../../../packages/proxy/bin/connector-proxy.js', import.meta.url));

/** `platform-server start` that is expected to refuse: its exit code and output (or a kill after 60 s). */
const refusedStart = async (
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> => {
  const child = spawn(process.execPath, [BIN, 'start'], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
};

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
        expect(server.output.join('')).not.toMatch(/does not hold/);
      } finally {
        await server.stop();
      }
    }, 120_000);

    afterAll(async () => {
      await issuer?.close();
      await database?.close();
    });

    const refused = (key: string) =>
      refusedStart({
        DATA_DIR: database.dataDir,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
        AUTH_ISSUER: issuer.url,
        SECRETS_KEY: key,
        LOG_LEVEL: 'warn',
      });

    it('refuses to start without the key id that sealed them, naming it and its count, never a value', async () => {
      const { code, output } = await refused(`other:${OTHER_KEY}`);
      expect(code).toBe(2);
      const lines = output.split('\n').filter((line) => line.includes('does not hold'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^Configuration error: \d+ stored secret values? (is|are) sealed under key ids SECRETS_KEY does not hold: default \(\d+ values?\)\. Add those keys back to SECRETS_KEY .*rotate-secrets/,
      );
      for (const secret of [OTHER_KEY, SEALING_KEY, 'kept-secret']) expect(output).not.toContain(secret);
    }, 120_000);

    it('refuses to start with another key under the id that sealed them, naming the id', async () => {
      const { code, output } = await refused(OTHER_KEY);
      expect(code).toBe(2);
      expect(output).toMatch(
        /Configuration error: SECRETS_KEY's key default is not the key that sealed the values stored under that id/,
      );
      for (const secret of [OTHER_KEY, SEALING_KEY, 'kept-secret']) expect(output).not.toContain(secret);
    }, 120_000);

    it.skipIf(backend.name !== 'postgres')(
      'is refused by the connector-proxy bin at its start too',
      async () => {
        const env = { DATABASE_URL: database.databaseUrl ?? '', AUTH_ISSUER: issuer.url };
        const other = await proxyStartOutput({ ...env, SECRETS_KEY: `other:${OTHER_KEY}` });
        expect(other).not.toContain('connector proxy listening');
        expect(other).toMatch(
          /connector-proxy: \d+ stored secret values? (is|are) sealed under key ids SECRETS_KEY does not hold: default/,
        );
        expect(other).not.toContain(OTHER_KEY);
        const same = await proxyStartOutput({
          ...env,
          SECRETS_KEY: `other:${OTHER_KEY},default:${SEALING_KEY}`,
        });
        expect(same).toContain('connector proxy listening');
        expect(same).not.toContain('does not hold');
      },
      90_000,
    );

    it('starts once it holds the key that sealed them again, under any first key', async () => {
      const server = await start(`other:${OTHER_KEY},default:${SEALING_KEY}`);
      try {
        expect(server.output.join('')).not.toMatch(/does not hold|is not the key/);
        const proxied = await fetch(`${server.url}${proxyPath}`, {
          headers: { authorization, 'x-grafx-proxy-external-url': 'http://127.0.0.1:9/items' },
        });
        // Opened: the request goes on to the (closed) target and fails there, not on the secret.
        expect(proxied.status).not.toBe(500);
      } finally {
        await server.stop();
      }
    }, 120_000);
  },
);
