/**
 * The configuration as the server reads it from the environment (docs/configuration.md): an empty value is an unset
 * one, and a refusal names the variable and its whole rule.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

describe('the configuration', () => {
  it('takes an empty value for an unset one: the default stays', () => {
    const config = loadConfig({ RATE_LIMIT_PER_SECOND: '', PORT: '', HOST: '', LOG_LEVEL: '' });
    expect(config.rateLimitPerSecond).toBe(200);
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
  });

  it('names the variable and the rule a value breaks', () => {
    const cases: [Record<string, string>, string][] = [
      [{ RATE_LIMIT_PER_SECOND: '-3' }, 'RATE_LIMIT_PER_SECOND is not valid: must be a number, 0 or more'],
      [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS is not valid: must be a whole number, 1 or more'],
      [{ PORT: '70000' }, 'PORT is not valid: must be a port number (0 to 65535)'],
      [
        { PUBLIC_URL: 'ftp://platform.example' },
        'PUBLIC_URL is not valid: must be an absolute http:// or https://',
      ],
      [
        { IDLE_TIMEOUT_SECONDS: '0' },
        'IDLE_TIMEOUT_SECONDS is not valid: must be a number of seconds above 0',
      ],
    ];
    for (const [env, message] of cases) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
  });
});
