import { ENV_PROD, ENV_SANDBOX, SUB_A, SUB_B, USERS } from './fixture.ts';
import type { TestPlatform } from './platform.ts';

/** The token roles of docs/authentication.md, one caller per row: every fuzzed request is sent as one of them. */
export const CALLERS = [
  { name: 'no token', user: undefined, roles: [] },
  { name: 'garbage token', user: undefined, roles: [], garbage: true },
  { name: 'owner rw', user: USERS.owner, roles: ['platform:read', 'platform:write'] },
  { name: 'owner no roles', user: USERS.owner, roles: [] },
  { name: 'admin rw', user: USERS.admin, roles: ['platform:read', 'platform:write'] },
  { name: 'member read', user: USERS.member, roles: ['platform:read'] },
  { name: 'env admin rw', user: USERS.envAdmin, roles: ['platform:read', 'platform:write'] },
  { name: 'content user read', user: USERS.contentUser, roles: ['platform:read'] },
  { name: 'outsider rw', user: USERS.outsider, roles: ['platform:read', 'platform:write'] },
  { name: 'ingest', user: 'ingest|robot', roles: ['platform:ingest'] },
  { name: 'connector server', user: USERS.owner, roles: ['platform:read', 'connector:server'] },
  {
    name: 'operator',
    user: 'ops|operator',
    roles: ['platform:read', 'platform:write', 'platform:admin', 'platform:ingest'],
  },
] as const;

export type Caller = (typeof CALLERS)[number];

/** Authorization header values of every caller (`undefined` = none sent). */
export const callerTokens = async (tp: TestPlatform): Promise<Map<string, string | undefined>> => {
  const tokens = new Map<string, string | undefined>();
  for (const caller of CALLERS) {
    if ('garbage' in caller) tokens.set(caller.name, 'Bearer not.a.jwt');
    else if (caller.user === undefined) tokens.set(caller.name, undefined);
    else tokens.set(caller.name, `Bearer ${await tp.token(caller.user, [...caller.roles])}`);
  }
  return tokens;
};

/** Real ids of things in the seeded platform, by path or query parameter name. */
export type KnownIds = Record<string, string[]>;

const post = async (tp: TestPlatform, token: string, path: string, body: unknown) => {
  const response = await tp.call(path, {
    method: path.endsWith('/auth/static') ? 'PUT' : 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`setup ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as { id: string; subjectTypes?: { id: string }[] };
};

/**
 * Creates one of everything the environment API names in `acme-prod` (a connector with a static key, a
 * template, a tag, a media, an external media) and returns the real ids by parameter name.
 */
export const seedWorld = async (tp: TestPlatform, targetHost = '127.0.0.1'): Promise<KnownIds> => {
  const token = await tp.token(USERS.owner, ['platform:read', 'platform:write']);
  const base = '/grafx/api/v1/environment/acme-prod';
  const connector = await post(tp, token, `${base}/connectors`, {
    name: 'Fuzz connector',
    version: '1.0.0',
    type: 'data',
    script: 'export default class Connector {}',
    allowedDomains: [targetHost],
    supportedAuth: ['staticKey', 'oAuth2ClientCredentials', 'oAuth2AuthorizationCode'],
  });
  await post(tp, token, `${base}/connectors/${connector.id}/auth/static`, {
    usage: 'browser',
    key: 'X-Api-Key',
    value: 'fuzz-static-secret',
  });
  const template = await post(tp, token, `${base}/templates`, { name: 'Fuzz template', content: '{}' });
  const tag = await post(tp, token, `${base}/tags`, { name: 'fuzz' });
  const media = await post(tp, token, `${base}/media`, { name: 'fuzz.png' });
  const external = await post(tp, token, `${base}/external-media`, { name: 'external.png' });
  const vision = (await (await tp.call(`${base}/vision?expand=allSubjectTypes`, { token })).json()) as {
    subjectTypes: { id: string }[];
  };
  return {
    subscriptionId: [SUB_A, SUB_B],
    environmentId: [ENV_PROD, ENV_SANDBOX, '11'],
    environment: ['acme-prod', 'ACME-Prod', ENV_PROD, 'globex-prod'],
    connectorId: [connector.id],
    templateId: [template.id],
    tagId: [tag.id],
    mediaId: [media.id],
    externalMediaId: [external.id],
    subjectTypeId: vision.subjectTypes.slice(0, 2).map((s) => s.id),
    userId: [USERS.owner, USERS.designer, 'auth0|nobody'],
    kind: ['static', 'oauth-client-credentials', 'oauth-authorization-code'],
    groupBy: ['year', 'month'],
    startDate: ['2026-01-01', '2025-12-01'],
    endDate: ['2026-03-31', '2026-12-31'],
    top: ['1', '3'],
    authUsage: ['browser', 'server'],
    expand: ['allSubjectTypes'],
    environmentName: ['acme', 'PROD'],
    limit: ['1', '100'],
    search: ['Fuzz'],
    tagId_query: [tag.id],
  };
};
