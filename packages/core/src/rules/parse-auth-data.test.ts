import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { parseAuthData } from './parse-auth-data.ts';

const errorsOf = (fn: () => unknown): Record<string, string[]> => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors ?? {};
    throw error;
  }
  throw new Error('expected a ValidationError');
};

describe('parseAuthData', () => {
  it('parses static key data', () => {
    expect(parseAuthData('staticKey', { key: 'X-Api-Key', value: 's3cret' })).toEqual({
      key: 'X-Api-Key',
      value: 's3cret',
    });
  });

  it('fills in the defaults of docs/connector-auth.md', () => {
    const code = parseAuthData('oAuth2AuthorizationCode', {
      clientId: 'id',
      clientSecret: 'secret',
      authorizationServerMetadata: {
        authorization_endpoint: 'https://idp.example/authorize',
        token_endpoint: 'https://idp.example/token',
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      },
    });
    expect(code.specCustomization).toEqual({
      codeParameterName: 'code',
      requestContentType: 'formUrlEncoded',
    });

    const password = parseAuthData('oAuth2ResourceOwnerPassword', {
      clientId: 'id',
      clientSecret: 'secret',
      username: 'u',
      password: 'p',
      tokenEndpoint: 'https://idp.example/token',
    });
    expect(password.bodyFormat).toBe('formUrlEncoded');

    const jwt = parseAuthData('oAuth2JwtBearer', {
      tokenEndpoint: 'https://idp.example/token',
      signatureConfig: { algorithm: 'RS256', privateKey: '-----BEGIN PRIVATE KEY-----\nabc' },
      jwtPayload: { iss: 'me', n: 1, b: true },
    });
    expect(jwt.jwtTokenParamName).toBe('assertion');
  });

  it('names each missing field and each unknown field', () => {
    expect(errorsOf(() => parseAuthData('oAuth2ClientCredentials', { clientId: 'id', extra: 1 }))).toEqual({
      clientSecret: [expect.any(String)],
      tokenEndpoint: [expect.any(String)],
      extra: ['unknown field'],
    });
  });

  it('names nested fields by dotted path', () => {
    const errors = errorsOf(() =>
      parseAuthData('oAuth2AuthorizationCode', {
        clientId: 'id',
        clientSecret: 'secret',
        authorizationServerMetadata: {
          authorization_endpoint: 'not a url',
          token_endpoint: 'https://idp.example/token',
          token_endpoint_auth_methods_supported: ['private_key_jwt'],
          issuer: 'x',
        },
        specCustomization: { requestContentType: 'xml' },
      }),
    );
    expect(Object.keys(errors).sort()).toEqual([
      'authorizationServerMetadata.authorization_endpoint',
      'authorizationServerMetadata.issuer',
      'authorizationServerMetadata.token_endpoint_auth_methods_supported[0]',
      'specCustomization.requestContentType',
    ]);
    expect(errors['authorizationServerMetadata.issuer']).toEqual(['unknown field']);
  });

  it('refuses a header value with a line break (it would split the request)', () => {
    expect(
      Object.keys(errorsOf(() => parseAuthData('staticKey', { key: 'X-A', value: 'a\r\nB: c' }))),
    ).toEqual(['value']);
  });

  it('keys a value that is not an object as data', () => {
    expect(Object.keys(errorsOf(() => parseAuthData('staticKey', 'key=value')))).toEqual(['data']);
  });

  it('says which type and fields failed in its message', () => {
    expect(() => parseAuthData('staticKey', { key: 'X-A' })).toThrow(
      'The staticKey authorization data is not valid: check value.',
    );
  });
});
