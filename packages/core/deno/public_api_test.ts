/**
 * Runs core's public functions under Deno, to prove the package uses Web APIs only (nothing Node-specific).
 * Plain asserts: the test machines reach no registry but npm, so no jsr:@std/assert.
 * Named `*_test.ts`, not `*.test.ts`, so vitest leaves it to `deno test`.
 * No deno.json: Deno takes the npm workspace (root package.json) as its workspace and resolves `zod` from
 * node_modules by itself; a member deno.json may not set `nodeModulesDir` anyway.
 */
import {
  AllowedDomain,
  assertAuthAllowed,
  boundText,
  canWriteEnvironment,
  createRedactor,
  EnvironmentRenderModel,
  InfoResponse,
  joinSecrets,
  maskSecrets,
  normalizeIdpDomains,
  parseAuthData,
  parseOrThrow,
  problem,
  SECRET_MASK,
  setAuth,
  splitSecrets,
  supportedAuthentication,
  ValidationError,
} from '../src/index.ts';

const assert = (condition: unknown, message: string): void => {
  if (!condition) throw new Error(`assertion failed: ${message}`);
};

const same = (actual: unknown, expected: unknown, message: string): void => {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`assertion failed: ${message}: expected ${e}, got ${a}`);
};

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('assertion failed: expected an error');
};

Deno.test('identity-provider domains are normalised with the runtime URL parser', () => {
  same(
    normalizeIdpDomains(['Example.COM', 'bücher.de', 'example.com.', 'xn--bcher-kva.de']),
    ['example.com', 'xn--bcher-kva.de'],
    'normalised list',
  );
  const error = thrown(() => normalizeIdpDomains(['*.a.com', 'a.com:80', '1.2.3.4', 'ok.example']));
  assert(error instanceof ValidationError, 'a ValidationError');
  const { errors, message, status } = error as ValidationError;
  same(Object.keys(errors ?? {}), ['body[0]', 'body[1]', 'body[2]'], 'every bad index named');
  same(message, '3 of the domains are not valid host names.', 'detail sentence');
  same(status, 400, 'status');
});

Deno.test('connector authorization rules', () => {
  assertAuthAllowed({ supportedAuth: ['staticKey'], type: 'staticKey', usage: 'server' });
  const error = thrown(() =>
    assertAuthAllowed({
      supportedAuth: ['oAuth2AuthorizationCode'],
      type: 'oAuth2AuthorizationCode',
      usage: 'server',
    }),
  );
  assert(error instanceof ValidationError && error.errors?.usage, 'authorization code is browser only');
  same(
    supportedAuthentication(['oAuth2AuthorizationCode', 'staticKey']),
    { browser: ['staticKey', 'oAuth2AuthorizationCode'], server: ['staticKey'] },
    'supportedAuthentication',
  );
  same(
    setAuth(setAuth({}, { usage: 'browser', type: 'staticKey' }), {
      usage: 'browser',
      type: 'oAuth2JwtBearer',
    }),
    { browser: { type: 'oAuth2JwtBearer', revision: 2 } },
    'setting again replaces',
  );
});

Deno.test('authorization data parses strictly and secrets split, join and mask (structuredClone)', () => {
  const data = parseAuthData('oAuth2JwtBearer', {
    tokenEndpoint: 'https://idp.example/token',
    signatureConfig: { algorithm: 'RS256', privateKey: '-----BEGIN PRIVATE KEY-----\nabc' },
    jwtPayload: { iss: 'me' },
  });
  same(data.jwtTokenParamName, 'assertion', 'default filled in');
  const { publicData, secretData } = splitSecrets('oAuth2JwtBearer', data);
  same(Object.keys(secretData), ['jwtPayload', 'signatureConfig.privateKey'], 'sealed parts keyed by path');
  const joined = joinSecrets('oAuth2JwtBearer', publicData, secretData);
  same({ ...data, ...joined }, data, 'round trip');
  same(Object.keys(joined).sort(), Object.keys(data).sort(), 'round trip keys');
  same(maskSecrets('oAuth2JwtBearer', data).signatureConfig.privateKey, SECRET_MASK, 'masked');

  const error = thrown(() => parseAuthData('staticKey', { key: 'X-A', extra: true }));
  assert(error instanceof ValidationError, 'a ValidationError');
  const errors = (error as ValidationError).errors ?? {};
  same(Object.keys(errors).sort(), ['extra', 'value'], 'missing and unknown fields named');
  same(errors.extra, ['unknown field'], 'unknown field message');
});

Deno.test('access rules', () => {
  const envGuid = '0b7e4f6c-7b1a-4c8e-9f2d-3a5b6c7d8e9f';
  const membership = { subscriptionRoles: [], environmentRoles: { [envGuid]: ['EnvironmentAdmin'] } };
  assert(canWriteEnvironment({ membership, isOperator: false }, envGuid), 'EnvironmentAdmin writes');
  assert(!canWriteEnvironment({ membership: null, isOperator: false }, envGuid), 'a stranger does not');
});

Deno.test('models, parseOrThrow and problem()', () => {
  same(
    parseOrThrow(InfoResponse, { data: { serverVersion: '1.0.0' } }, 'info'),
    { data: { serverVersion: '1.0.0' } },
    'parsed',
  );
  const error = thrown(() =>
    parseOrThrow(
      EnvironmentRenderModel,
      { date: 'yesterday', totalRenders: 1, totalWatermarkedRenders: 0, renderDetail: [] },
      'render group',
    ),
  );
  assert(error instanceof ValidationError, 'a ValidationError');
  same(Object.keys((error as ValidationError).errors ?? {}), ['date'], 'bad field named');
  same(
    problem({ status: 400, detail: 'Bad.', traceId: 't', errors: { date: ['x'] } }),
    {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'Bad Request',
      status: 400,
      detail: 'Bad.',
      errors: { date: ['x'] },
      traceId: 't',
    },
    'problem body',
  );
});

Deno.test('allowedDomains follow the Public Suffix List and refuse odd IP spellings; redaction and bounds', () => {
  assert(AllowedDomain.safeParse('*.example.co.uk').success, 'a wildcard above a registrable domain');
  for (const entry of [
    '*.com',
    '*.co.uk',
    '*.github.io',
    '0x7f000001',
    '2130706433',
    '0177.0.0.1',
    '127.1',
  ]) {
    assert(!AllowedDomain.safeParse(entry).success, `${entry} refused`);
  }
  same(createRedactor(['k-123'])('key k-123 echoed'), 'key *** echoed', 'redacted');
  assert(new TextEncoder().encode(boundText('é'.repeat(5000))).byteLength <= 1024, 'bounded to 1 KiB');
});
