import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { subscriptions } from '../schema/admin.ts';
import { type AuditFieldChange, auditEntries } from '../schema/audit.ts';
import type { Db } from '../types.ts';

export type AuditOutcome = 'success' | 'denied';

export type AuditTargetType =
  | 'connector'
  | 'connectorAuthorization'
  | 'template'
  | 'tag'
  | 'media'
  | 'subscription'
  | 'dataFile'
  | 'secrets';

/** What an audit entry says (docs/audit.md); `id` and `at` are given when an entry is imported, else made here. */
export type AuditEntryInput = {
  id?: string;
  at?: Date;
  actor: { issuer: string; subject: string };
  action: string;
  outcome: AuditOutcome;
  target: {
    type: AuditTargetType;
    id: string;
    environment?: string | undefined;
    /** The subscription's integer id: the entry keeps its guid. */
    subscriptionId?: number | undefined;
  };
  sourceAddress: string;
  traceId: string;
  /** `{field: {from?, to?}}`; secret fields already as fingerprints: this module never sees a secret. */
  changes: Record<string, AuditFieldChange>;
};

/**
 * Appends one entry to the audit trail. Call it with the transaction that makes the change, so that the change
 * and its entry commit together or not at all. Returns the entry's id.
 */
export const recordAudit = async (tx: Pick<Db, 'insert'>, entry: AuditEntryInput): Promise<string> => {
  const id = entry.id ?? randomUUID();
  await tx.insert(auditEntries).values({
    id,
    at: entry.at ?? new Date(),
    actorIssuer: entry.actor.issuer,
    actorSubject: entry.actor.subject,
    action: entry.action,
    outcome: entry.outcome,
    targetType: entry.target.type,
    targetId: entry.target.id,
    environment: entry.target.environment ?? null,
    // Its guid, read in the change's own transaction: entries are entitled by it, never by a reusable integer id.
    subscriptionGuid:
      entry.target.subscriptionId === undefined
        ? null
        : sql`(select ${subscriptions.guid} from ${subscriptions} where ${subscriptions.id} = ${entry.target.subscriptionId})`,
    sourceAddress: entry.sourceAddress,
    traceId: entry.traceId,
    changes: entry.changes,
  });
  return id;
};
