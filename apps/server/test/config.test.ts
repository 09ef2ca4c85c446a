/**
 * The configuration as the server reads it from the environment (docs/configuration.md): an empty value is an unset
 * one, and a refusal names the variable and its whole rule.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

describe('the configuration', () => {
  it.each(['', ' ', '\t '])('takes a value of %j for an unset one: the default stays', (blank) => {
    // Number(' ') is 0: a blank rate limit read as a number would turn the limit off, a blank port pick a random one.
    const config = loadConfig({ RATE_LIMIT_PER_SECOND: blank, PORT: blank, HOST: blank, LOG_LEVEL: blank });
    expect(config.rateLimitPerSecond).toBe(200);
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.auditRetentionDays).toBe(400);
    expect(config.auditing).toBe(true);
  });

  it('keeps auditing on in production whatever the bench switch says', () => {
    expect(loadConfig({ AUDIT_BENCH_OFF: 'true' }).auditing).toBe(false);
    expect(
      loadConfig({ AUDIT_BENCH_OFF: 'true', NODE_ENV: 'production', AUTH_ISSUER: 'https://idp.example' })
        .auditing,
    ).toBe(true);
  });

  it('bounds connector sessions by the machine unless told, and ends idle ones after five minutes', () => {
    const defaults = loadConfig({});
    expect(defaults.runtimeSessions.idleMs).toBe(300_000);
    expect(defaults.runtimeSessions.maxSessions).toBeGreaterThanOrEqual(16);
    expect(defaults.runtimeSessions.maxSessions).toBeLessThanOrEqual(1000);
    const set = loadConfig({ RUNTIME_MAX_SESSIONS: '1', RUNTIME_SESSION_IDLE_SECONDS: '2' });
    expect(set.runtimeSessions).toEqual({ idleMs: 2000, maxSessions: 1 });
  });

  it('names the variable and the rule a value breaks', () => {
    const cases: [Record<string, string>, string][] = [
      [{ RATE_LIMIT_PER_SECOND: '-3' }, 'RATE_LIMIT_PER_SECOND is not valid: must be a number, 0 or more'],
      [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS is not valid: must be a whole number, 1 or more'],
      [
        { AUDIT_RETENTION_DAYS: '0' },
        'AUDIT_RETENTION_DAYS is not valid: must be a whole number of days, 1 or more',
      ],
      [
        { AUDIT_RETENTION_DAYS: '1.5' },
        'AUDIT_RETENTION_DAYS is not valid: must be a whole number of days, 1 or more',
      ],
      [{ PORT: '70000' }, 'PORT is not valid: must be a port number (0 to 65535)'],
      [
        { PUBLIC_URL: 'ftp://platform.example' },
        'PUBLIC_URL is not valid: must be an absolute http:// or https://',
      ],
      [
        { IDLE_TIMEOUT_SECONDS: '0' },
        'IDLE_TIMEOUT_SECONDS is not valid: must be a number of seconds above 0',
      ],
      [
        { RUNTIME_MAX_SESSIONS: '0' },
        'RUNTIME_MAX_SESSIONS is not valid: must be a whole number of sessions, at least 1',
      ],
      [
        { RUNTIME_SESSION_IDLE_SECONDS: '-1' },
        'RUNTIME_SESSION_IDLE_SECONDS is not valid: must be a number of seconds above 0',
      ],
    ];
    for (const [env, message] of cases) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
  });

  it('takes SECRETS_KEY as one key or several id:base64 keys, and names the rule a key breaks, never a key', () => {
    const key = Buffer.alloc(32, 3).toString('base64');
    const short = Buffer.alloc(16, 4).toString('base64');
    expect(loadConfig({ SECRETS_KEY: key }).secretsKey).toBe(key);
    expect(
      loadConfig({ SECRETS_KEY: `new:${key},old:${Buffer.alloc(32, 5).toString('base64')}` }).secretsKey,
    ).toMatch(/^new:/);
    const cases: [string, string][] = [
      [
        short,
        'SECRETS_KEY is not valid: the key must be 32 bytes, base64-encoded (openssl rand -base64 32).',
      ],
      [`new:${key},old:${short}`, 'SECRETS_KEY is not valid: key old must be 32 bytes, base64-encoded'],
      [`New:${key}`, "SECRETS_KEY is not valid: key 1's id must be 1 to 32 of a-z, 0-9 and -."],
      [
        `new:${key},${key}`,
        'SECRETS_KEY is not valid: key 2 must be written id:base64 when several keys are given.',
      ],
      [`a:${key},a:${key}`, 'SECRETS_KEY is not valid: the key id a is given twice.'],
    ];
    for (const [value, message] of cases) {
      expect(() => loadConfig({ SECRETS_KEY: value }), value).toThrow(message);
      try {
        loadConfig({ SECRETS_KEY: value });
      } catch (error) {
        expect((error as Error).message).not.toContain(key);
        expect((error as Error).message).not.toContain(short);
      }
    }
  });

  it('checks HOST, AUTH_ISSUER, PUBLIC_URL and DATABASE_URL at start, never printing the value', () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ HOST: 's3cr3t host' }, 'HOST is not valid: must be an IP address or a host name', 's3cr3t'],
      [
        { AUTH_ISSUER: 'ftp://idp.example/s3cr3t' },
        'AUTH_ISSUER is not valid: must be the issuer URL (http:// or https://)',
        's3cr3t',
      ],
      [
        { PUBLIC_URL: 'http://user:s3cr3t@platform.example' },
        'PUBLIC_URL is not valid: must not carry a user name or password',
        's3cr3t',
      ],
      [
        {
          DATABASE_URL: 'postgres://user:s3cr3t@[platform',
          SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
        },
        'DATABASE_URL is not valid: must be a postgres:// URL that parses',
        's3cr3t',
      ],
      [
        { PUBLIC_URL: 'https://platform.example/?s3cr3t=1' },
        'PUBLIC_URL is not valid: must not carry a query or a fragment',
        's3cr3t',
      ],
      [
        { PUBLIC_URL: 'https://platform.example/base#s3cr3t' },
        'PUBLIC_URL is not valid: must not carry a query or a fragment',
        's3cr3t',
      ],
    ];
    for (const [env, message, secret] of cases) {
      let thrown: unknown;
      try {
        loadConfig(env);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error | undefined)?.message, JSON.stringify(env)).toContain(message);
      expect((thrown as Error).message).not.toContain(secret);
    }
    for (const host of ['0.0.0.0', '::', 'localhost', 'platform-1.internal.example'])
      expect(loadConfig({ HOST: host }).host).toBe(host);
  });
});
