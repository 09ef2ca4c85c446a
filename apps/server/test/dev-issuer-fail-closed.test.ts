/**
 * The password-less development issuer fails closed (docs/configuration.md, "The development issuer"): every start
 * here is the real `platform-server start` process, configured by environment variables only.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerChild, startServerChild } from './support/server-child.ts';

const BIN = fileURLToPath(new URL('../bin/platform-server.js', import.meta.url));
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
/** Never reached: a start that got as far as the database would fail there, not with the configuration error. */
const UNREACHABLE_DATABASE = 'postgres://nobody@127.0.0.1:1/none';

/** `platform-server start` that is expected to be refused: its exit code and output (killed after 30 s). */
const refusedStart = (env: Record<string, string>, dataDir: string) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'start'],
      {
        env: { PATH: process.env.PATH ?? '', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
        timeout: 30_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          output: stdout + stderr,
        }),
    );
  });

describe('a start without AUTH_ISSUER', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-dev-issuer-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(['production', 'Production', ' production', 'PRODUCTION', 'prod', 'staging'])(
    'is refused with NODE_ENV=%j, even on the embedded database, a loopback HOST and DEV_ISSUER=true',
    async (nodeEnv) => {
      for (const env of <Record<string, string>[]>[
        { NODE_ENV: nodeEnv, HOST: '127.0.0.1', DEV_ISSUER: 'true' },
        { NODE_ENV: nodeEnv, HOST: '0.0.0.0', DATABASE_URL: UNREACHABLE_DATABASE, SECRETS_KEY },
      ]) {
        const refused = await refusedStart(env, dataDir);
        expect(refused.code).toBe(2);
        expect(refused.output).toContain('AUTH_ISSUER is required');
        expect(refused.output).not.toContain('export TOKEN=');
      }
    },
  );

  it('is refused with DATABASE_URL unless DEV_ISSUER=true names the development issuer', async () => {
    for (const nodeEnv of ['', 'development', 'test']) {
      const refused = await refusedStart(
        { NODE_ENV: nodeEnv, HOST: '127.0.0.1', DATABASE_URL: UNREACHABLE_DATABASE, SECRETS_KEY },
        dataDir,
      );
      expect(refused.code).toBe(2);
      expect(refused.output).toContain('not with DATABASE_URL');
      expect(refused.output).toContain('Set AUTH_ISSUER to your OpenID issuer, or DEV_ISSUER=true');
      expect(refused.output).not.toContain(UNREACHABLE_DATABASE);
    }
  });

  it('is refused on a HOST that is not loopback unless DEV_ISSUER=true', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const refused = await refusedStart({ HOST: host }, dataDir);
      expect(refused.code).toBe(2);
      expect(refused.output).toContain(`not with HOST=${host}`);
      expect(refused.output).toContain('DEV_ISSUER=true');
    }
    // The issue's deployment: no NODE_ENV, PostgreSQL, every interface.
    const refused = await refusedStart(
      { HOST: '0.0.0.0', DATABASE_URL: UNREACHABLE_DATABASE, SECRETS_KEY },
      dataDir,
    );
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('DEV_ISSUER=true');
  });

  it('mints no token where the server would not start', async () => {
    const minted = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'token', '--sub', 'attacker', '--roles', 'platform:admin'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            DATA_DIR: dataDir,
            DATABASE_URL: UNREACHABLE_DATABASE,
            SECRETS_KEY,
          },
          timeout: 30_000,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
      );
    });
    expect(minted.code).toBe(2);
    expect(minted.output).toContain('DEV_ISSUER=true');
  });
});

const backends = await testBackends();
const backend = backends.find((b) => b.name === 'postgres') ?? backends[0]!;

describe(`the development issuer asked for by name (${backend.name})`, () => {
  let database: TestDatabase;
  let server: ServerChild;
  beforeAll(async () => {
    database = await backend.fresh();
    await database.detach();
    server = await startServerChild({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      issuerUrl: '',
      env: { HOST: '0.0.0.0', DEV_ISSUER: 'true', DEMO_DATA: 'true', LOG_LEVEL: 'info' },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
  });

  it('says loudly that it is on, and signs in no one the database does not list', async () => {
    const banner = server.output.join('');
    expect(banner).toContain('DEVELOPMENT ISSUER ON');
    expect(banner).toContain('Anyone who reaches this port can sign in as any user listed');
    expect(banner).toContain('export TOKEN=');
    // The issue's attack: a made-up subject with the operator role, posted to the sign-in form.
    const posted = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        client_id: 'platform-console',
        redirect_uri: `${server.url}/console/callback`,
        code_challenge: 'c'.repeat(43),
        sub: 'attacker',
        roles: 'platform:admin',
      }),
    });
    expect(posted.status).toBe(303);
    const location = new URL(posted.headers.get('location') ?? '');
    expect(location.searchParams.get('code')).toBeNull();
    expect(location.searchParams.get('error')).toBe('access_denied');
  });

  it('platform-server token mints a token this server accepts', async () => {
    const minted = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'token', '--sub', 'demo|owner'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            DATA_DIR: database.dataDir,
            DEV_ISSUER: 'true',
            ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl, SECRETS_KEY } : {}),
          },
          timeout: 30_000,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
      );
    });
    expect(minted.code, minted.output).toBe(0);
    const answer = await fetch(`${server.url}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${minted.output.trim()}` },
    });
    expect(answer.status).toBe(200);
  });
});

describe('DEV_ISSUER=false without AUTH_ISSUER', () => {
  let database: TestDatabase;
  let server: ServerChild;
  beforeAll(async () => {
    database = await backends[0]!.fresh();
    await database.detach();
    server = await startServerChild({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      issuerUrl: '',
      env: { DEV_ISSUER: 'false', DEMO_DATA: 'true' },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
  });

  it('starts with no issuer, says so, and answers 401 to every token', async () => {
    expect(server.output.join('')).toContain('every route that needs a token answers 401');
    expect(server.output.join('')).not.toContain('export TOKEN=');
    const minted = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'token', '--sub', 'demo|owner'],
        { env: { PATH: process.env.PATH ?? '', DATA_DIR: database.dataDir } },
        (_error, stdout) => resolve(stdout.trim()),
      );
    });
    const answer = await fetch(`${server.url}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${minted}` },
    });
    expect(answer.status).toBe(401);
    expect((await fetch(`${server.url}/oauth/authorize`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/info`)).status).toBe(200);
  });
});
