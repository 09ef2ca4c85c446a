import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { environments } from './admin.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const connectors = pgTable(
  'connectors',
  {
    id: uuid('id').primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    version: text('version').notNull(),
    type: text('type').notNull(),
    iconUrl: text('icon_url'),
    options: jsonb('options').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    script: text('script').notNull(),
    apiVersion: text('api_version'),
    allowedDomains: text('allowed_domains').array().notNull(),
    forwardedHeaders: boolean('forwarded_headers').notNull().default(false),
    supportedAuth: text('supported_auth').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('connectors_environment').on(t.environmentId)],
);

/**
 * Every auth change takes a new revision from here: a refresh token is presented only under the revision it was
 * obtained under, and leases and failures are per revision. The access token cached before a change stays in use
 * until it expires or the target refuses it (docs/connector-auth.md rule 4).
 */
export const authRevisions = pgSequence('connector_auth_revision');

/** One authorization per connector and usage (docs/connector-auth.md rules 2 and 3). */
export const connectorAuth = pgTable(
  'connector_auth',
  {
    id: uuid('id').primaryKey(),
    connectorId: uuid('connector_id')
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    usage: text('usage').notNull(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    revision: bigint('revision', { mode: 'number' }).notNull(),
    /** The type's data without its secret fields. */
    publicData: jsonb('public_data').$type<Record<string, unknown>>().notNull(),
    /** The secret fields, as JSON encrypted by `SecretBox` (key id inside the envelope). */
    secretData: text('secret_data').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [uniqueIndex('connector_auth_usage').on(t.connectorId, t.usage)],
);

/** Cached OAuth 2.0 tokens; `userId` is '' except for the authorization code type. Values encrypted. */
export const connectorTokens = pgTable(
  'connector_tokens',
  {
    connectorId: uuid('connector_id')
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    usage: text('usage').notNull(),
    revision: bigint('revision', { mode: 'number' }).notNull(),
    userId: text('user_id').notNull().default(''),
    accessToken: text('access_token').notNull(),
    refreshToken: text('refresh_token'),
    tokenType: text('token_type').notNull().default('Bearer'),
    expiresAt: ts('expires_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectorId, t.usage, t.revision, t.userId] })],
);

export const connectorSharedHeaders = pgTable('connector_shared_headers', {
  connectorId: uuid('connector_id')
    .primaryKey()
    .references(() => connectors.id, { onDelete: 'cascade' }),
  /** `{name: value}` JSON, encrypted. */
  headers: text('headers').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** Pending authorization-code logins: state and PKCE verifier bound to the platform user who started them. */
export const oauthLoginStates = pgTable('oauth_login_states', {
  state: text('state').primaryKey(),
  connectorId: uuid('connector_id')
    .notNull()
    .references(() => connectors.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull(),
  revision: bigint('revision', { mode: 'number' }).notNull(),
  codeVerifier: text('code_verifier').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: ts('expires_at').notNull(),
});

export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The template document as JSON text (any JSON value), kept as written so key order survives. */
    content: text('content').notNull().default('null'),
    createdAt: ts('created_at').notNull(),
    contentModifiedAt: ts('content_modified_at').notNull(),
  },
  (t) => [index('templates_environment_name').on(t.environmentId, t.name, t.id)],
);

export const tags = pgTable(
  'tags',
  {
    id: uuid('id').primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('tags_environment_name').on(t.environmentId, sql`lower(${t.name})`)],
);

export const templateTags = pgTable(
  'template_tags',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.tagId] }), index('template_tags_tag').on(t.tagId)],
);

export const subjectTypes = pgTable(
  'subject_types',
  {
    id: uuid('id').primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('subject_types_environment_name').on(t.environmentId, t.name)],
);

/**
 * Media and external media assets; `external` tells them apart. An external asset is known by the id its own
 * source gives it (`externalId`, opaque, unique per environment); `id` is then only the row's key.
 */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    external: boolean('external').notNull(),
    externalId: text('external_id'),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('media_environment').on(t.environmentId),
    uniqueIndex('media_external_id').on(t.environmentId, t.externalId),
  ],
);

export const mediaSubjectTypes = pgTable(
  'media_subject_types',
  {
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    subjectTypeId: uuid('subject_type_id')
      .notNull()
      .references(() => subjectTypes.id, { onDelete: 'cascade' }),
    assigned: boolean('assigned').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.mediaId, t.subjectTypeId] })],
);

/**
 * One row per token cache key (`connectorId:usage:revision:userId`) while tokens are fetched for it: the lease
 * makes one replica fetch while the others wait for its notification (channel `connector_token_fetches`), a failure
 * is remembered until `failedUntil` for every replica, and `renewAfter` spaces the renewals an upstream 401 asks for.
 */
export const connectorTokenFetches = pgTable('connector_token_fetches', {
  key: text('key').primaryKey(),
  connectorId: uuid('connector_id')
    .notNull()
    .references(() => connectors.id, { onDelete: 'cascade' }),
  leasedUntil: ts('leased_until'),
  failedUntil: ts('failed_until'),
  failureCode: text('failure_code'),
  failureMessage: text('failure_message'),
  renewAfter: ts('renew_after'),
});

/**
 * What a connector's runs did (docs/connector-runtime.md "Activity"): one row per invocation, its fetches inside as
 * JSON (method, URL without query values, status, bytes, duration, credentials injected). Never a secret. Kept per
 * connector: the newest 1,000 rows, none older than 7 days.
 */
export const connectorActivity = pgTable(
  'connector_activity',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    connectorId: uuid('connector_id')
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    method: text('method').notNull(),
    usage: text('usage').notNull(),
    status: integer('status').notNull(),
    code: text('code'),
    error: text('error'),
    durationMs: doublePrecision('duration_ms').notNull(),
    fetches: jsonb('fetches').$type<ActivityFetch[]>().notNull().default([]),
    /** The connector's `runtime.logError` messages of the invocation, redacted and bounded. */
    logs: jsonb('logs').$type<string[]>().notNull().default([]),
  },
  (t) => [index('connector_activity_connector').on(t.connectorId, t.id)],
);

export type ActivityFetch = {
  method: string;
  url: string;
  status: number | null;
  bytes: number;
  durationMs: number;
  credentialsInjected: boolean;
  /** Ended with its call before it was answered (aborted, its connection closed). */
  aborted?: boolean;
  /** For an aborted fetch: whether its request (with the usage's credentials, if any) had gone to the upstream. */
  requestSent?: boolean;
  error?: string;
};
