import { Writable } from 'node:stream';
import type { TestBackend, TestDatabase } from '@platform/store/testing';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { type Platform, startPlatform } from '../../src/platform.ts';
import { startTestIssuer, type TestIssuer } from './issuer.ts';

export type TestPlatform = {
  url: string;
  platform: Platform;
  database: TestDatabase;
  issuer: TestIssuer;
  /** Every log line the server wrote, as text: tests search it for secrets. */
  logs: string[];
  /** A token of the test issuer for `sub` with `roles`. */
  token(sub: string, roles?: string[]): Promise<string>;
  /** fetch against the platform with an optional bearer token. */
  call(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  close(): Promise<void>;
};

/** Starts the real platform on a free loopback port over `backend`, trusting a real issuer on loopback. */
export const startTestPlatform = async (
  backend: TestBackend,
  env: Record<string, string> = {},
  /** A database a platform used before (restart tests); a fresh one otherwise. */
  reused?: TestDatabase,
): Promise<TestPlatform> => {
  const database = reused ?? (await backend.fresh());
  const issuer = await startTestIssuer();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    AUTH_ISSUER: issuer.url,
    DEMO_DATA: 'false',
    RATE_LIMIT_PER_SECOND: '0',
    PROXY_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
    ...(database.databaseUrl
      ? { DATABASE_URL: database.databaseUrl, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }
      : {}),
    ...env,
  });
  const platform = await startPlatform(config, pino({ level: 'info' }, sink), database);
  return {
    url: platform.url,
    platform,
    database,
    issuer,
    logs,
    token: (sub, roles = ['platform:read', 'platform:write']) => issuer.sign({ sub, roles }),
    call: (path, init = {}) => {
      const { token, headers, ...rest } = init;
      return fetch(`${platform.url}${path}`, {
        ...rest,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(headers as Record<string, string>),
        },
      });
    },
    close: async () => {
      await platform.close();
      await database.close();
      await issuer.close();
    },
  };
};
