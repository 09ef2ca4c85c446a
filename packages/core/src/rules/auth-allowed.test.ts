import { describe, expect, it } from 'vitest';
import { AuthType } from '../connectors/auth-types.ts';
import { ValidationError } from '../errors.ts';
import { assertAuthAllowed, supportedAuthentication } from './auth-allowed.ts';

const all = AuthType.options;

const rejection = (fn: () => void): ValidationError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
};

describe('assertAuthAllowed', () => {
  it.each(all.flatMap((type) => (['browser', 'server'] as const).map((usage) => [type, usage] as const)))(
    '%s for %s usage follows the table of docs/connector-auth.md',
    (type, usage) => {
      const allowed = !(type === 'oAuth2AuthorizationCode' && usage === 'server');
      const run = () => assertAuthAllowed({ supportedAuth: all, type, usage });
      if (allowed) expect(run).not.toThrow();
      else expect(run).toThrow(ValidationError);
    },
  );

  it('refuses a type the connector does not list, saying how to fix it', () => {
    const error = rejection(() =>
      assertAuthAllowed({ supportedAuth: ['staticKey'], type: 'oAuth2ClientCredentials', usage: 'server' }),
    );
    expect(error.status).toBe(400);
    expect(Object.keys(error.errors ?? {})).toEqual(['type']);
    expect(error.errors?.type?.[0]).toContain('(staticKey)');
    expect(error.message).toContain('add it to config.supportedAuth in package.json and publish again');
  });

  it('names "none" when the connector lists no type', () => {
    const error = rejection(() =>
      assertAuthAllowed({ supportedAuth: [], type: 'staticKey', usage: 'browser' }),
    );
    expect(error.errors?.type?.[0]).toContain('(none)');
  });

  it('refuses authorization code for server usage on the usage field', () => {
    const error = rejection(() =>
      assertAuthAllowed({ supportedAuth: all, type: 'oAuth2AuthorizationCode', usage: 'server' }),
    );
    expect(error.errors).toEqual({ usage: ['oAuth2AuthorizationCode supports only browser usage'] });
  });

  it('reports both problems at once', () => {
    const error = rejection(() =>
      assertAuthAllowed({ supportedAuth: ['staticKey'], type: 'oAuth2AuthorizationCode', usage: 'server' }),
    );
    expect(Object.keys(error.errors ?? {}).sort()).toEqual(['type', 'usage']);
  });
});

describe('supportedAuthentication', () => {
  it('is empty without supported types', () => {
    expect(supportedAuthentication([])).toEqual({ browser: [], server: [] });
  });

  it('keeps enumeration order, drops duplicates and leaves authorization code out of server', () => {
    expect(
      supportedAuthentication(['oAuth2JwtBearer', 'oAuth2AuthorizationCode', 'staticKey', 'staticKey']),
    ).toEqual({
      browser: ['staticKey', 'oAuth2AuthorizationCode', 'oAuth2JwtBearer'],
      server: ['staticKey', 'oAuth2JwtBearer'],
    });
  });

  it('lists every type for browser and all but authorization code for server', () => {
    const result = supportedAuthentication([...all].reverse());
    expect(result.browser).toEqual([...all]);
    expect(result.server).toEqual(all.filter((type) => type !== 'oAuth2AuthorizationCode'));
  });
});
