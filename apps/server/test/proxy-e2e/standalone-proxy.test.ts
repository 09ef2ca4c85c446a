/**
 * The `connector-proxy` bin, the proxy as a process of its own (packages/proxy/README.md), started as an operator
 * starts it: what it answers to what no name can hold, as the server's proxy route does, and how a start it cannot
 * make is told (one line naming the variable, no stack trace).
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { migrate, openDatabase } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';

const BIN = fileURLToPath(new URL('../../../../packages/proxy/bin/connector-proxy.js', import.meta.url));
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
const postgres = (await testBackends()).find((backend) => backend.name === 'postgres');
if (!postgres) console.info('[standalone proxy] skipped: it runs on PostgreSQL only, and none is configured');

const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
};

/** A start that is expected to end: its exit code and what it printed. */
const endedStart = (env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          output: stdout + stderr,
        }),
    );
  });

describe.skipIf(!postgres)('the connector-proxy bin', () => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let url: string;
  let env: Record<string, string>;
  let child: ReturnType<typeof spawn>;

  beforeAll(async () => {
    database = await postgres!.fresh();
    const opened = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await migrate(opened);
    await opened.close();
    issuer = await startTestIssuer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      DATABASE_URL: database.databaseUrl ?? '',
      SECRETS_KEY,
      AUTH_ISSUER: issuer.url,
      LOG_LEVEL: 'warn',
    };
    child = spawn(process.execPath, [BIN], { env, stdio: 'ignore' });
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      if ((await fetch(`${url}/api/ping`).catch(() => undefined))?.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('connector-proxy did not answer /api/ping within 30 s');
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await once(child, 'exit');
    await issuer?.close();
    await database?.close();
  });

  it('refuses what no name can hold: 400 for the path, 401 for the token, never a 500', async () => {
    const token = await issuer.sign({ sub: 'auth0|reader', roles: ['platform:read'] });
    const proxyPath = (environment: string, connector = '5f7c3a8e-1b2d-4c3e-9f00-123456789abc') =>
      `${url}/grafx/api/v1/environment/${environment}/connectors/${connector}/proxy`;
    const call = (path: string, bearer = token) =>
      fetch(path, {
        headers: { authorization: `Bearer ${bearer}`, 'x-grafx-proxy-external-url': 'https://x.example/' },
      });
    expect((await call(proxyPath('acme%00prod'))).status).toBe(400);
    expect((await call(proxyPath('%ED%A0%80'))).status).toBe(400);
    expect((await call(proxyPath('acme-prod', '%E0%A4%A'))).status).toBe(400);
    const nul = await issuer.sign({ sub: 'demo|owner\u0000x', roles: ['platform:read'] });
    const refused = await call(proxyPath('acme-prod'), nul);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('names the variable of a start it cannot make, in one line', async () => {
    const badKey = await endedStart({ ...env, PORT: '0', SECRETS_KEY: 'not-a-key' });
    expect(badKey.code).toBe(2);
    expect(badKey.output).toMatch(/^connector-proxy: .*SECRETS_KEY/);
    expect(badKey.output.trim().split('\n')).toHaveLength(1);
    const unreachable = await endedStart({ ...env, PORT: '0', AUTH_ISSUER: 'http://127.0.0.1:1' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toMatch(
      /^connector-proxy: AUTH_ISSUER: OpenID discovery at .* could not be reached/,
    );
    expect(unreachable.output.trim().split('\n')).toHaveLength(1);
  });
});
