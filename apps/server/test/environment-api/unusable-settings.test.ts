/**
 * Settings that could never work are refused when they are set, naming the field (docs/connector-auth.md):
 * header names the proxy owns, header values HTTP cannot carry, RS256 keys that are not RSA of 2048 bits or more, and
 * a JWT bearer assertion put where the grant type goes.
 */
import { generateKeyPairSync } from 'node:crypto';
import { testBackends } from '@platform/store/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { connectorBody, environmentApi, envPath, expectFields } from './support.ts';

const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  key.export({ type: 'pkcs8', format: 'pem' }).toString();

const KEYS = {
  rsa2048: pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey),
  rsa1024: pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey),
  rsa512: pem(generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey),
  ec: pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey),
  ed25519: pem(generateKeyPairSync('ed25519').privateKey),
};

const REFUSED_NAMES = [
  'Transfer-Encoding',
  'Upgrade',
  'Keep-Alive',
  'Expect',
  'Host',
  'Connection',
  'TE',
  'Trailer',
  'Proxy-Authorization',
  'proxy-anything',
  'Content-Length',
  'X-GraFx-Proxy-External-Url',
  'x-grafx-anything',
];
const UNSENDABLE_VALUES = [
  'a\r\nInjected: 1',
  'nul\0byte',
  'bell\x07',
  'del\x7f',
  'snow ☃',
  'emoji 🔑',
  'ĀĒ',
];

describe.each((await testBackends()).slice(0, 1))('settings that can never work, on $name', (backend) => {
  const { call } = environmentApi(backend);
  const owner = { user: USERS.owner };
  const base = `${envPath('acme-prod')}/connectors`;
  let connector: string;

  beforeAll(async () => {
    const reply = await call<{ id: string }>('POST', base, { ...owner, body: connectorBody() });
    expect(reply.status).toBe(201);
    connector = reply.body.id;
  });

  const setStatic = (key: string, value: string) =>
    call('PUT', `${base}/${connector}/auth/static`, { ...owner, body: { usage: 'server', key, value } });
  const setShared = (headers: Record<string, string>) =>
    call('PUT', `${base}/${connector}/shared-headers`, { ...owner, body: { headers } });
  const setJwt = (privateKey: string, more: Record<string, unknown> = {}) =>
    call('PUT', `${base}/${connector}/auth/oauth-jwt-bearer`, {
      ...owner,
      body: {
        usage: 'server',
        tokenEndpoint: 'https://auth.acme.example/token',
        signatureConfig: { algorithm: 'RS256', privateKey },
        jwtPayload: { iss: 'connector' },
        ...more,
      },
    });

  it('refuses static-key and shared-header names the proxy owns or that route the request', async () => {
    for (const name of [...REFUSED_NAMES, 'Bad Name', 'x:y', 'Ünïcode']) {
      expectFields(await setStatic(name, 'secret-value'), ['key']);
      expectFields(await setShared({ [name]: 'v' }), [`headers.${name}`]);
    }
    expect((await setStatic('X-Api-Key', 'secret-value')).status).toBe(200);
    expect((await setStatic('Authorization', 'Basic dXNlcjpwYXNz')).status).toBe(200);
    expect((await setShared({ 'X-Tenant': 'acme' })).status).toBe(200);
  });

  it('refuses values with control characters or characters outside Latin-1, naming the field', async () => {
    for (const value of UNSENDABLE_VALUES) {
      const refused = expectFields(await setStatic('X-Api-Key', value), ['value']);
      expect(JSON.stringify(refused)).not.toContain(value);
      expectFields(await setShared({ 'X-Tenant': value }), ['headers.X-Tenant']);
    }
    expect((await setStatic('X-Api-Key', 'tab\tand café ÿ')).status).toBe(200);
    expect((await setShared({ 'X-Tenant': 'Zürich' })).status).toBe(200);
  });

  it('refuses RS256 keys that are not RSA or are under 2048 bits, never echoing the key', async () => {
    for (const key of [
      KEYS.rsa1024,
      KEYS.rsa512,
      KEYS.ec,
      KEYS.ed25519,
      '-----BEGIN PRIVATE KEY-----\nx\n',
    ]) {
      const refused = expectFields(await setJwt(key), ['signatureConfig.privateKey']);
      expect(JSON.stringify(refused)).not.toContain(key.split('\n')[1] ?? key);
    }
    const small = expectFields(await setJwt(KEYS.rsa1024), ['signatureConfig.privateKey']);
    expect(small.detail).toContain('at least 2048 bits (this one has 1024)');
    const ec = expectFields(await setJwt(KEYS.ec), ['signatureConfig.privateKey']);
    expect(ec.detail).toContain('an RSA private key for RS256 (this is ec)');
    expect((await setJwt(KEYS.rsa2048)).status).toBe(200);
  });

  it('refuses grant_type as the assertion parameter: the token request would carry no assertion', async () => {
    const refused = expectFields(await setJwt(KEYS.rsa2048, { jwtTokenParamName: 'grant_type' }), [
      'jwtTokenParamName',
    ]);
    expect(JSON.stringify(refused.errors)).toContain('grant_type is the grant type itself');
    expect((await setJwt(KEYS.rsa2048, { jwtTokenParamName: 'client_assertion' })).status).toBe(200);
  });
});
