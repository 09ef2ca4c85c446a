import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** One field's change in an audit entry; a secret field holds fingerprints (`sha256:<8 hex>`), never the value. */
export type AuditFieldChange = { from?: unknown; to?: unknown };

/**
 * The audit trail (docs/audit.md): one row per change, written in the transaction of the change. Append-only: the
 * trigger of migration 0008 refuses UPDATE, TRUNCATE and a DELETE other than the retention sweep's. No foreign
 * keys: an entry outlives what it names.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: uuid('id').primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    actorIssuer: text('actor_issuer').notNull(),
    actorSubject: text('actor_subject').notNull(),
    action: text('action').notNull(),
    outcome: text('outcome').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** The environment's technical name when the target lives in one. */
    environment: text('environment'),
    /**
     * The guid of the subscription the target belonged to when the entry was written (what readers are entitled by).
     * A guid, not the subscription's integer id: a subscription created later under the same integer id (a data file
     * gives ids) must not read this one's history.
     */
    subscriptionGuid: uuid('subscription_guid'),
    sourceAddress: text('source_address').notNull(),
    traceId: text('trace_id').notNull(),
    changes: jsonb('changes').$type<Record<string, AuditFieldChange>>().notNull(),
  },
  // Newest first with a cursor of (at, id), under each filter the reading endpoint offers.
  (t) => [
    index('audit_entries_at').on(t.at.desc(), t.id.desc()),
    index('audit_entries_subscription').on(t.subscriptionGuid, t.at.desc(), t.id.desc()),
    index('audit_entries_environment').on(sql`lower(${t.environment})`, t.at.desc(), t.id.desc()),
    index('audit_entries_actor').on(t.actorSubject, t.at.desc(), t.id.desc()),
    index('audit_entries_action').on(t.action, t.at.desc(), t.id.desc()),
  ],
);
