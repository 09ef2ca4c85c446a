import { authDataSchemas } from '@platform/core';
import { describe, expect, it } from 'vitest';
import { bodyOf } from './auth-fields.ts';

describe('bodyOf: the form values of an authorization type as the request body', () => {
  it('builds a static key body', () => {
    expect(bodyOf('staticKey', 'server', '', { key: 'X-Api-Key', value: 's3cret' })).toEqual({
      body: { usage: 'server', key: 'X-Api-Key', value: 's3cret' },
    });
  });

  it('nests dotted paths, leaves empty optional fields out, and passes the schema of its type', () => {
    const built = bodyOf('oAuth2AuthorizationCode', 'browser', 'Catalogue', {
      clientId: 'c',
      clientSecret: 's',
      scope: '',
      'authorizationServerMetadata.authorization_endpoint': 'https://idp.example/authorize',
      'authorizationServerMetadata.token_endpoint': 'https://idp.example/token',
      'authorizationServerMetadata.token_endpoint_auth_methods_supported': 'client_secret_post',
    });
    if (!('body' in built)) throw new Error('expected a body');
    expect(built.body).toMatchObject({ usage: 'browser', name: 'Catalogue' });
    expect(built.body).not.toHaveProperty('scope');
    const { usage: _usage, name: _name, ...data } = built.body;
    expect(authDataSchemas.oAuth2AuthorizationCode.safeParse(data).success).toBe(true);
  });

  it('parses JSON fields, names the one that is not JSON, and fixes the JWT algorithm', () => {
    const values = {
      tokenEndpoint: 'https://idp.example/token',
      'signatureConfig.privateKey': '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
      jwtPayload: '{"iss":"me"}',
    };
    const built = bodyOf('oAuth2JwtBearer', 'server', '', values);
    if (!('body' in built)) throw new Error('expected a body');
    const { usage: _usage, ...data } = built.body;
    expect(authDataSchemas.oAuth2JwtBearer.safeParse(data).success).toBe(true);
    expect(bodyOf('oAuth2JwtBearer', 'server', '', { ...values, jwtPayload: '{' })).toEqual({
      errors: { jwtPayload: 'not valid JSON' },
    });
  });
});
