import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const int64 = (name: string) => bigint(name, { mode: 'number' });

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  avatar: text('avatar'),
  lastSeen: int64('last_seen'),
  status: text('status').notNull().default('Active'),
});

export const subscriptions = pgTable('subscriptions', {
  id: integer('id').primaryKey(),
  guid: uuid('guid').notNull().unique(),
  name: text('name').notNull(),
  displayName: text('display_name').notNull(),
  clientId: uuid('client_id').notNull(),
  clientName: text('client_name'),
  status: text('status').notNull(),
  subscriptionType: text('subscription_type').notNull(),
  isPlatformPricebook: boolean('is_platform_pricebook').notNull(),
  pricebookVersion: text('pricebook_version').notNull(),
  isWhitelabeled: boolean('is_whitelabeled').notNull(),
  subscriptionTier: text('subscription_tier').notNull(),
  maxTemplates: integer('max_templates').notNull(),
  maxRenders: int64('max_renders'),
  maxStorage: int64('max_storage'),
  averageRendersPeriodDays: integer('average_renders_period_days').notNull(),
  startDate: text('start_date'),
  endDate: text('end_date'),
  billingClientContact: text('billing_client_contact'),
  templateDesignerSeatsTotal: integer('template_designer_seats_total'),
  overdueInvoices: boolean('overdue_invoices').notNull(),
  isPublisherEnabled: boolean('is_publisher_enabled').notNull(),
  isStudioEnabled: boolean('is_studio_enabled').notNull(),
  isExperienceEnabled: boolean('is_experience_enabled'),
  maxSpaces: integer('max_spaces'),
  isPartnerEnabled: boolean('is_partner_enabled'),
  sandboxEnvironmentsTotal: int64('sandbox_environments_total'),
  productionEnvironmentsTotal: int64('production_environments_total'),
  /** Licenses are always read with their subscription; `null` keeps "no license list" apart from an empty one. */
  licenses: text('licenses_json'),
});

export const externalIdpDomains = pgTable(
  'external_idp_domains',
  {
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.domain] })],
);

export const environments = pgTable(
  'environments',
  {
    id: integer('id').primaryKey(),
    guid: uuid('guid').notNull().unique(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    technicalName: text('technical_name'),
    defaultName: text('default_name'),
    type: text('type').notNull(),
    region: text('region'),
    tenantName: text('tenant_name'),
    backOfficeUri: text('back_office_uri'),
    disableCpoToPlatformRedirect: boolean('disable_cpo_to_platform_redirect').notNull().default(false),
    storageAssets: int64('storage_assets').notNull().default(0),
    storageDocuments: int64('storage_documents').notNull().default(0),
    storageFonts: int64('storage_fonts').notNull().default(0),
    storageCache: int64('storage_cache').notNull().default(0),
    storageBackup: int64('storage_backup').notNull().default(0),
    storageOther: int64('storage_other').notNull().default(0),
  },
  (t) => [
    uniqueIndex('environments_technical_name_lower').on(sql`lower(${t.technicalName})`),
    index('environments_subscription').on(t.subscriptionId),
  ],
);

export const memberships = pgTable(
  'memberships',
  {
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionRoles: text('subscription_roles').array().notNull().default(sql`'{}'::text[]`),
    membershipType: text('membership_type').notNull().default('Invitation'),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.userId] }), index('memberships_user').on(t.userId)],
);

export const environmentRoles = pgTable(
  'environment_roles',
  {
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roles: text('roles').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.userId] }), index('environment_roles_user').on(t.userId)],
);

/** Render usage rolled up per environment, UTC day, kind and watermark flag: queries never scan raw events. */
export const renderDaily = pgTable(
  'render_daily',
  {
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    watermarked: boolean('watermarked').notNull(),
    count: int64('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.day, t.kind, t.watermarked] })],
);

/**
 * The same renders rolled up per UTC month (`month` is its first day): a year of a subscription is a few
 * thousand rows instead of a few hundred thousand. Written by the same statement as `render_daily`, so the two
 * always agree: a month's rows here are the sums of its days there.
 */
export const renderMonthly = pgTable(
  'render_monthly',
  {
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    watermarked: boolean('watermarked').notNull(),
    count: int64('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.month, t.kind, t.watermarked] })],
);

/**
 * Render events that came from a data file, by their identity, so that importing the same file again changes
 * nothing (runtime ingestion is additive and does not pass through here).
 */
export const importedRenderEvents = pgTable(
  'imported_render_events',
  {
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    watermarked: boolean('watermarked').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.at, t.kind, t.watermarked] })],
);

/** Facts about the database itself, such as whether it holds the demo data set (and so may be replaced by an import). */
export const platformMeta = pgTable('platform_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Live server replicas on one PostgreSQL: each refreshes its row every few seconds, so every replica knows how
 * many share the platform-wide rate limit (packages/api rate limit). Rows not refreshed for a while are stale.
 */
export const platformReplicas = pgTable('platform_replicas', {
  id: text('id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull(),
});
