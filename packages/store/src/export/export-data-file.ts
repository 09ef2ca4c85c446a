import { asSentence, DataFile, dataFileErrors, listErrors } from '@platform/core';
import { sql } from 'drizzle-orm';
import { exportAuditEntries } from '../audit/audit-file.ts';
import { queryRows } from '../query-rows.ts';
import type { Db } from '../types.ts';
import { exportRenderEvents } from './export-render-events.ts';

type UserRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  avatar: string | null;
  lastSeen: number | string | null;
  status: string;
};
type SubscriptionRow = Record<string, unknown> & {
  id: number;
  isPartnerEnabled: boolean | null;
  licenses: string | null;
  maxRenders: number | string | null;
  maxStorage: number | string | null;
  sandboxEnvironmentsTotal: number | string | null;
  productionEnvironmentsTotal: number | string | null;
};
type EnvironmentRow = Record<string, unknown> & {
  id: number;
  subscriptionId: number;
  assets: number | string;
  documents: number | string;
  fonts: number | string;
  cache: number | string;
  backup: number | string;
  other: number | string;
};
type MemberRow = {
  subscriptionId: number;
  userId: string;
  subscriptionRoles: string[];
  membershipType: string;
};
type RoleRow = { subscriptionId: number; userId: string; environmentGuid: string; roles: string[] };
type DomainRow = { subscriptionId: number; domain: string };

/** int64 columns come back as strings from node-postgres and as numbers from PGlite. */
const int64 = (value: number | string): number => Number(value);
const nullableInt64 = (value: number | string | null): number | null =>
  value === null ? null : Number(value);

/** The stored answer to `what the file said`: the licenses JSON the last import wrote (null: no list). */
const licensesOf = (text: string | null): unknown[] | null => {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value : null;
};

const groupBy = <T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> => {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const list = out.get(key(row));
    if (list) list.push(row);
    else out.set(key(row), [row]);
  }
  return out;
};

/**
 * What the database holds of the administration data, as a data file (docs/data-file.md) that imports back to the
 * same state: every user, subscription (with its environments, licenses, members and identity-provider domains)
 * and the render counts as daily roll-ups, one event per environment, UTC day, kind and watermark flag at
 * midnight. Read in one transaction, so a concurrent import is seen whole or not at all. Every list is ordered by
 * its key, so exporting the same state twice gives the same file.
 */
export const exportDataFile = async (db: Db): Promise<DataFile> =>
  db.transaction(async (tx) => {
    const users = await queryRows<UserRow>(
      tx,
      sql`select id, email, first_name as "firstName", last_name as "lastName", avatar, last_seen as "lastSeen",
                 status
          from users order by id`,
    );
    const subscriptions = await queryRows<SubscriptionRow>(
      tx,
      sql`select id, guid::text as guid, name, display_name as "displayName", client_id::text as "clientId",
                 client_name as "clientName", status, subscription_type as "subscriptionType",
                 is_platform_pricebook as "isPlatformPricebook", pricebook_version as "pricebookVersion",
                 is_whitelabeled as "isWhitelabeled", subscription_tier as "subscriptionTier",
                 max_templates as "maxTemplates", max_renders as "maxRenders", max_storage as "maxStorage",
                 average_renders_period_days as "averageRendersPeriodDays", start_date as "startDate",
                 end_date as "endDate", billing_client_contact as "billingClientContact",
                 template_designer_seats_total as "templateDesignerSeatsTotal",
                 overdue_invoices as "overdueInvoices", is_publisher_enabled as "isPublisherEnabled",
                 is_studio_enabled as "isStudioEnabled", is_experience_enabled as "isExperienceEnabled",
                 max_spaces as "maxSpaces", is_partner_enabled as "isPartnerEnabled",
                 sandbox_environments_total as "sandboxEnvironmentsTotal",
                 production_environments_total as "productionEnvironmentsTotal", licenses_json as licenses
          from subscriptions order by id`,
    );
    const environments = await queryRows<EnvironmentRow>(
      tx,
      sql`select id, guid::text as guid, subscription_id as "subscriptionId", name,
                 technical_name as "technicalName", default_name as "defaultName", type, region,
                 tenant_name as "tenantName", back_office_uri as "backOfficeUri",
                 disable_cpo_to_platform_redirect as "disableCpoToPlatformRedirect",
                 storage_assets as assets, storage_documents as documents, storage_fonts as fonts,
                 storage_cache as cache, storage_backup as backup, storage_other as other
          from environments order by id`,
    );
    const members = await queryRows<MemberRow>(
      tx,
      sql`select subscription_id as "subscriptionId", user_id as "userId",
                 subscription_roles as "subscriptionRoles", membership_type as "membershipType"
          from memberships order by subscription_id, user_id`,
    );
    const roles = await queryRows<RoleRow>(
      tx,
      sql`select e.subscription_id as "subscriptionId", r.user_id as "userId", e.guid::text as "environmentGuid",
                 r.roles
          from environment_roles r join environments e on e.id = r.environment_id
          order by e.id, r.user_id`,
    );
    const domains = await queryRows<DomainRow>(
      tx,
      sql`select subscription_id as "subscriptionId", domain from external_idp_domains
          order by subscription_id, position`,
    );
    const renderEvents = await exportRenderEvents(tx);
    const auditEntries = await exportAuditEntries(tx as unknown as Db);

    const environmentsOf = groupBy(environments, (e) => e.subscriptionId);
    const membersOf = groupBy(members, (m) => m.subscriptionId);
    const rolesOf = groupBy(roles, (r) => `${r.subscriptionId}\u0000${r.userId}`);
    const domainsOf = groupBy(domains, (d) => d.subscriptionId);

    // Parsed by the schema import uses: what export writes is a file import accepts, with the types it states.
    const file = DataFile.safeParse({
      users: users.map((user) => ({ ...user, lastSeen: nullableInt64(user.lastSeen) })),
      subscriptions: subscriptions.map(({ isPartnerEnabled, licenses, ...subscription }) => ({
        ...subscription,
        maxRenders: nullableInt64(subscription.maxRenders),
        maxStorage: nullableInt64(subscription.maxStorage),
        sandboxEnvironmentsTotal: nullableInt64(subscription.sandboxEnvironmentsTotal),
        productionEnvironmentsTotal: nullableInt64(subscription.productionEnvironmentsTotal),
        experienceExtensions: { isPartnerEnabled },
        externalIdpDomains: (domainsOf.get(subscription.id) ?? []).map((d) => d.domain),
        licenses: licensesOf(licenses),
        environments: (environmentsOf.get(subscription.id) ?? []).map(
          ({ subscriptionId: _, assets, documents, fonts, cache, backup, other, ...environment }) => ({
            ...environment,
            storage: {
              assets: int64(assets),
              documents: int64(documents),
              fonts: int64(fonts),
              cache: int64(cache),
              backup: int64(backup),
              other: int64(other),
            },
          }),
        ),
        members: (membersOf.get(subscription.id) ?? []).map(({ subscriptionId: _, ...member }) => ({
          ...member,
          environmentRoles: Object.fromEntries(
            (rolesOf.get(`${subscription.id}\u0000${member.userId}`) ?? []).map((r) => [
              r.environmentGuid,
              r.roles,
            ]),
          ),
        })),
      })),
      renderEvents,
      auditEntries,
    });
    if (file.success) return file.data;
    // Rows written before the data file was strict (a start date as 01/01/2025) would not import again.
    throw new Error(
      `The stored data cannot be written as a data file: ${asSentence(listErrors(dataFileErrors(file.error)))}`,
    );
  });
