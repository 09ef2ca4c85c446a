import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { assertHttpsEndpoints } from './auth-endpoints.ts';

const errorsOf = (run: () => void): Record<string, string[]> | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  return undefined;
};

describe('assertHttpsEndpoints', () => {
  it('names every http endpoint of a type, by dot path', () => {
    const metadata = {
      authorization_endpoint: 'http://idp.example/a',
      token_endpoint: 'http://idp.example/t',
    };
    expect(
      errorsOf(() =>
        assertHttpsEndpoints('oAuth2AuthorizationCode', { authorizationServerMetadata: metadata }, false),
      ),
    ).toEqual({
      'authorizationServerMetadata.authorization_endpoint': ['must be an https:// URL'],
      'authorizationServerMetadata.token_endpoint': ['must be an https:// URL'],
    });
    expect(
      errorsOf(() => assertHttpsEndpoints('oAuth2JwtBearer', { tokenEndpoint: 'ftp://idp.example/t' }, true)),
    ).toEqual({ tokenEndpoint: ['must be an https:// URL'] });
  });

  it('accepts https, and http where private networks are allowed', () => {
    expect(
      errorsOf(() =>
        assertHttpsEndpoints('oAuth2ClientCredentials', { tokenEndpoint: 'https://i.example/t' }, false),
      ),
    ).toBeUndefined();
    expect(
      errorsOf(() =>
        assertHttpsEndpoints('oAuth2ClientCredentials', { tokenEndpoint: 'http://10.0.0.1/t' }, true),
      ),
    ).toBeUndefined();
  });

  it('checks data not yet parsed, leaving what is no URL to the schema', () => {
    // Other fields missing: the endpoint given is judged all the same, so that every bad field is named at once.
    expect(
      errorsOf(() =>
        assertHttpsEndpoints('oAuth2ClientCredentials', { tokenEndpoint: 'http://i.example/t' }, false),
      ),
    ).toEqual({ tokenEndpoint: ['must be an https:// URL'] });
    for (const data of [{}, { tokenEndpoint: 12 }, { tokenEndpoint: 'token' }, null, 'text']) {
      expect(errorsOf(() => assertHttpsEndpoints('oAuth2ClientCredentials', data, false))).toBeUndefined();
    }
    expect(
      errorsOf(() =>
        assertHttpsEndpoints('oAuth2AuthorizationCode', { authorizationServerMetadata: 'x' }, false),
      ),
    ).toBeUndefined();
    expect(
      errorsOf(() => assertHttpsEndpoints('staticKey', { tokenEndpoint: 'http://i.example' }, false)),
    ).toBeUndefined();
  });
});
