import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthDataOf } from '../connectors/auth-data.ts';
import { secretPaths } from '../connectors/auth-data.ts';
import type { AuthType } from '../connectors/auth-types.ts';
import { ServiceError } from '../errors.ts';
import { joinSecrets, maskSecrets, SECRET_MASK, splitSecrets } from './auth-secrets.ts';
import { parseAuthData } from './parse-auth-data.ts';

const examples: { [T in AuthType]: AuthDataOf[T] } = {
  staticKey: parseAuthData('staticKey', { key: 'X-Api-Key', value: 'static-secret' }),
  oAuth2ClientCredentials: parseAuthData('oAuth2ClientCredentials', {
    clientId: 'cid',
    clientSecret: 'cc-secret',
    scope: 'read',
    tokenEndpoint: 'https://idp.example/token',
  }),
  oAuth2AuthorizationCode: parseAuthData('oAuth2AuthorizationCode', {
    clientId: 'cid',
    clientSecret: 'code-secret',
    authorizationServerMetadata: {
      authorization_endpoint: 'https://idp.example/authorize',
      token_endpoint: 'https://idp.example/token',
      token_endpoint_auth_methods_supported: ['client_secret_post'],
    },
  }),
  oAuth2ResourceOwnerPassword: parseAuthData('oAuth2ResourceOwnerPassword', {
    clientId: 'cid',
    clientSecret: 'ropc-secret',
    username: 'user',
    password: 'user-password',
    tokenEndpoint: 'https://idp.example/token',
  }),
  oAuth2JwtBearer: parseAuthData('oAuth2JwtBearer', {
    tokenEndpoint: 'https://idp.example/token',
    signatureConfig: {
      algorithm: 'RS256',
      privateKey: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----',
    },
    jwtPayload: { iss: 'me', n: 1, admin: true },
    requestBodyParams: { client_secret: 'body-secret' },
  }),
};

const secretsOf: Record<AuthType, Record<string, unknown>> = {
  staticKey: { value: 'static-secret' },
  oAuth2ClientCredentials: { clientSecret: 'cc-secret' },
  oAuth2AuthorizationCode: { clientSecret: 'code-secret' },
  oAuth2ResourceOwnerPassword: { clientSecret: 'ropc-secret', password: 'user-password' },
  oAuth2JwtBearer: {
    'signatureConfig.privateKey': examples.oAuth2JwtBearer.signatureConfig.privateKey,
    jwtPayload: { iss: 'me', n: 1, admin: true },
    requestBodyParams: { client_secret: 'body-secret' },
  },
};

const types = Object.keys(examples) as AuthType[];

describe.each(types)('%s secrets', (type) => {
  const data = examples[type];

  it('split keeps no secret in the public part and all of them in the secret part', () => {
    const { publicData, secretData } = splitSecrets(type, data);
    expect(secretData).toEqual(secretsOf[type]);
    const json = JSON.stringify(publicData);
    for (const secret of Object.values(secretsOf[type])) expect(json).not.toContain(JSON.stringify(secret));
    expect(json).not.toContain('body-secret');
    expect(publicData).not.toHaveProperty('jwtPayload');
  });

  it('join after split gives the data back, and split does not modify its input', () => {
    const before = structuredClone(data);
    const { publicData, secretData } = splitSecrets(type, data);
    expect(data).toEqual(before);
    expect(joinSecrets(type, publicData, secretData)).toEqual(data);
  });

  it('join refuses a record that lost a secret (a server fault, not a caller one)', () => {
    const { publicData } = splitSecrets(type, data);
    const error = (() => {
      try {
        joinSecrets(type, publicData, {});
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('INTERNAL');
  });

  it('mask replaces every secret field and nothing else (sealed objects are shown)', () => {
    const masked = maskSecrets(type, data);
    const json = JSON.stringify(masked);
    for (const path of secretPaths[type]) expect(json).not.toContain(JSON.stringify(secretsOf[type][path]));
    const { publicData, secretData } = splitSecrets(type, data);
    const { publicData: maskedPublic, secretData: maskedSecrets } = splitSecrets(type, masked);
    expect(maskedPublic).toEqual(publicData);
    for (const [path, value] of Object.entries(maskedSecrets))
      expect(value).toEqual(secretPaths[type].includes(path) ? SECRET_MASK : secretData[path]);
    expect(data).toEqual(examples[type]);
  });
});

describe('round trip of generated data', () => {
  it('holds for any secret strings', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (secret, password) => {
        const data = { ...examples.oAuth2ResourceOwnerPassword, clientSecret: secret, password };
        const { publicData, secretData } = splitSecrets('oAuth2ResourceOwnerPassword', data);
        expect(secretData).toEqual({ clientSecret: secret, password });
        expect(joinSecrets('oAuth2ResourceOwnerPassword', publicData, secretData)).toEqual(data);
      }),
    );
  });
});

describe('maskSecrets on unvalidated input', () => {
  it('masks the fields that are present and leaves the rest', () => {
    expect(maskSecrets('oAuth2JwtBearer', { signatureConfig: { privateKey: 'k' }, other: 1 })).toEqual({
      signatureConfig: { privateKey: SECRET_MASK },
      other: 1,
    });
    expect(maskSecrets('oAuth2JwtBearer', { signatureConfig: 'odd' })).toEqual({ signatureConfig: 'odd' });
    expect(maskSecrets('staticKey', { key: 'X-A' })).toEqual({ key: 'X-A' });
  });

  it('returns non-objects unchanged', () => {
    expect(maskSecrets('staticKey', null)).toBeNull();
    expect(maskSecrets('staticKey', 'text')).toBe('text');
    expect(maskSecrets('staticKey', [1])).toEqual([1]);
  });
});
