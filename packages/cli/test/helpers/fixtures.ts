import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthKind, AuthType, AuthUsage } from '@platform/core';
import { tempDir } from './run-cli.ts';

/** Every secret below is a distinctive string, so a test can search any output for it. */
export const SECRETS = {
  staticValue: 'static-secret-value-7f3a9c',
  clientSecret: 'client-secret-value-51be02',
  password: 'password-value-c0ffee99',
  privateKeyBody: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDprivatekeybody',
  token: 'platform-token-3d8e1f7a2b',
} as const;

const privateKey = `-----BEGIN PRIVATE KEY-----\n${SECRETS.privateKeyBody}\n-----END PRIVATE KEY-----\n`;

export const authData: Record<AuthType, Record<string, unknown>> = {
  staticKey: { key: 'X-Api-Key', value: SECRETS.staticValue },
  oAuth2ClientCredentials: {
    clientId: 'cli',
    clientSecret: SECRETS.clientSecret,
    scope: 'read',
    tokenEndpoint: 'https://login.example.com/oauth/token',
  },
  oAuth2AuthorizationCode: {
    clientId: 'cli',
    clientSecret: SECRETS.clientSecret,
    scope: 'read',
    authorizationServerMetadata: {
      authorization_endpoint: 'https://login.example.com/authorize',
      token_endpoint: 'https://login.example.com/oauth/token',
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    },
    specCustomization: { codeParameterName: 'code', requestContentType: 'formUrlEncoded' },
  },
  oAuth2ResourceOwnerPassword: {
    clientId: 'cli',
    clientSecret: SECRETS.clientSecret,
    username: 'integration',
    password: SECRETS.password,
    bodyFormat: 'applicationJson',
    tokenEndpoint: 'https://login.example.com/oauth/token',
  },
  oAuth2JwtBearer: {
    tokenEndpoint: 'https://login.example.com/oauth/token',
    signatureConfig: { algorithm: 'RS256', privateKey },
    jwtPayload: { iss: 'cli', sub: 'integration', exp: 300, admin: false },
    jwtTokenParamName: 'assertion',
    requestBodyParams: { scope: 'read' },
  },
};

export const kinds: Record<AuthType, AuthKind> = {
  staticKey: 'static',
  oAuth2ClientCredentials: 'oauth-client-credentials',
  oAuth2AuthorizationCode: 'oauth-authorization-code',
  oAuth2ResourceOwnerPassword: 'oauth-resource-owner-password',
  oAuth2JwtBearer: 'oauth-jwt-bearer',
};

/** Every (type, usage) pair docs/connector-auth.md allows. */
export const allowedPairs: ReadonlyArray<readonly [AuthType, AuthUsage]> = [
  ['staticKey', 'browser'],
  ['staticKey', 'server'],
  ['oAuth2ClientCredentials', 'browser'],
  ['oAuth2ClientCredentials', 'server'],
  ['oAuth2AuthorizationCode', 'browser'],
  ['oAuth2ResourceOwnerPassword', 'browser'],
  ['oAuth2ResourceOwnerPassword', 'server'],
  ['oAuth2JwtBearer', 'browser'],
  ['oAuth2JwtBearer', 'server'],
];

export const ALL_TYPES = Object.keys(authData) as AuthType[];

/** Writes files into a fresh directory and returns it. */
export const writeFiles = (files: Record<string, string | object>): string => {
  const dir = tempDir('connector-cli-files-');
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
};

/** A connector project: package.json with `config.supportedAuth`, and its built script. */
export const connectorPackage = (supportedAuth: readonly string[] = ALL_TYPES) => ({
  name: '@acme/weather-connector',
  version: '1.2.0',
  description: 'Weather data for templates',
  main: 'dist/index.js',
  config: {
    name: 'Weather',
    type: 'data',
    allowedDomains: ['api.weather.example', '*.weather.example'],
    supportedAuth,
    options: { units: 'metric' },
    proxyOptions: { forwardedHeaders: false },
  },
});
