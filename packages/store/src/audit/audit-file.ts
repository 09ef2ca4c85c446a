import type { AuditEntry } from '@platform/core';
import { auditEntries } from '../schema/audit.ts';
import type { Db } from '../types.ts';
import type { AuditEntryRow } from './list-audit-entries.ts';
import type { AuditTargetType } from './record-audit.ts';

/** A stored entry as the API and the data file show it. */
export const toAuditEntry = (row: AuditEntryRow): AuditEntry => {
  const subscriptionId = row.subscriptionGuid ?? undefined;
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { issuer: row.actorIssuer, subject: row.actorSubject },
    action: row.action,
    outcome: row.outcome as AuditEntry['outcome'],
    target: {
      type: row.targetType as AuditTargetType,
      id: row.targetId,
      ...(row.environment === null ? {} : { environment: row.environment }),
      ...(subscriptionId === undefined ? {} : { subscriptionId }),
    },
    sourceAddress: row.sourceAddress,
    traceId: row.traceId,
    changes: row.changes,
  };
};

/** The whole trail, oldest first, for `platform-server export`. */
export const exportAuditEntries = async (db: Db): Promise<AuditEntry[]> => {
  const rows = await db.select().from(auditEntries).orderBy(auditEntries.at, auditEntries.id);
  return rows.map(toAuditEntry);
};

const PER_STATEMENT = 500;

/**
 * Adds a data file's entries inside the import's transaction; an entry whose id is already held is left as it is
 * (the trail is append-only), so importing a file again adds nothing. Returns how many were added.
 */
export const importAuditEntries = async (db: Db, entries: readonly AuditEntry[]): Promise<number> => {
  if (entries.length === 0) return 0;
  let added = 0;
  for (let start = 0; start < entries.length; start += PER_STATEMENT) {
    const rows = entries.slice(start, start + PER_STATEMENT).map((entry) => ({
      id: entry.id.toLowerCase(),
      at: new Date(entry.at),
      actorIssuer: entry.actor.issuer,
      actorSubject: entry.actor.subject,
      action: entry.action,
      outcome: entry.outcome,
      targetType: entry.target.type,
      targetId: entry.target.id,
      environment: entry.target.environment ?? null,
      // The subscription it was written for, whether or not this database holds it (yet).
      subscriptionGuid: entry.target.subscriptionId?.toLowerCase() ?? null,
      sourceAddress: entry.sourceAddress,
      traceId: entry.traceId,
      changes: entry.changes,
    }));
    const inserted = await db
      .insert(auditEntries)
      .values(rows)
      .onConflictDoNothing({ target: auditEntries.id })
      .returning({ id: auditEntries.id });
    added += inserted.length;
  }
  return added;
};
