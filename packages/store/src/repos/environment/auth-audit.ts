import { asc, eq } from 'drizzle-orm';
import { authAudit } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';

export type AuthAuditAction = 'auth.set' | 'auth.deleted' | 'sharedHeaders.set' | 'connector.deleted';

/** One audit entry: who changed which authorization of which connector; never any of its data. */
export type AuthAuditEntry = {
  at: Date;
  actor: string;
  environmentId: number;
  connectorId: string;
  action: AuthAuditAction;
  usage?: string | null;
  type?: string | null;
};

export const writeAuthAudit = async (db: Db, entry: AuthAuditEntry): Promise<void> => {
  await db.insert(authAudit).values({ ...entry, usage: entry.usage ?? null, type: entry.type ?? null });
};

/** The audit trail of one connector, oldest first (kept after the connector is deleted). */
export const listAuthAudit = (db: Db, connectorId: string) =>
  db.select().from(authAudit).where(eq(authAudit.connectorId, connectorId)).orderBy(asc(authAudit.id));
