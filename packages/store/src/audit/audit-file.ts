import type { AuditEntry } from '@platform/core';
import { inArray } from 'drizzle-orm';
import { subscriptions } from '../schema/admin.ts';
import { auditEntries } from '../schema/audit.ts';
import type { Db } from '../types.ts';
import type { AuditEntryRow } from './list-audit-entries.ts';
import type { AuditTargetType } from './record-audit.ts';

/** Subscription guids by internal id, for the ids `rows` name (entries show a subscription by its guid). */
export const subscriptionGuidsOf = async (
  db: Db,
  rows: readonly AuditEntryRow[],
): Promise<Map<number, string>> => {
  const ids = [...new Set(rows.flatMap((row) => (row.subscriptionId === null ? [] : [row.subscriptionId])))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: subscriptions.id, guid: subscriptions.guid })
    .from(subscriptions)
    .where(inArray(subscriptions.id, ids));
  return new Map(found.map((row) => [row.id, row.guid]));
};

/** A stored entry as the API and the data file show it. */
export const toAuditEntry = (row: AuditEntryRow, guids: ReadonlyMap<number, string>): AuditEntry => {
  const subscriptionId = row.subscriptionId === null ? undefined : guids.get(row.subscriptionId);
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
  const guids = await subscriptionGuidsOf(db, rows);
  return rows.map((row) => toAuditEntry(row, guids));
};

const PER_STATEMENT = 500;

/**
 * Adds a data file's entries inside the import's transaction; an entry whose id is already held is left as it is
 * (the trail is append-only), so importing a file again adds nothing. Returns how many were added.
 */
export const importAuditEntries = async (db: Db, entries: readonly AuditEntry[]): Promise<number> => {
  if (entries.length === 0) return 0;
  const guids = [
    ...new Set(
      entries.flatMap((e) => (e.target.subscriptionId ? [e.target.subscriptionId.toLowerCase()] : [])),
    ),
  ];
  const known =
    guids.length === 0
      ? []
      : await db
          .select({ id: subscriptions.id, guid: subscriptions.guid })
          .from(subscriptions)
          .where(inArray(subscriptions.guid, guids));
  const idOf = new Map(known.map((row) => [row.guid, row.id]));
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
      subscriptionId: entry.target.subscriptionId
        ? (idOf.get(entry.target.subscriptionId.toLowerCase()) ?? null)
        : null,
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
