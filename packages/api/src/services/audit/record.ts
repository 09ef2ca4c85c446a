import type { AuditAction } from '@platform/core';
import {
  type AuditEntryInput,
  type AuditOutcome,
  type AuditTargetType,
  type Db,
  type EnvironmentRow,
  recordAudit,
} from '@platform/store';
import type { ServiceContext } from '../context.ts';

export type AuditChanges = AuditEntryInput['changes'];

/** What a service says of its change; the context adds who, when, from where and the trace (docs/audit.md). */
export type AuditDraft = {
  action: AuditAction;
  target: {
    type: AuditTargetType;
    id: string;
    /** The environment the target lives in: its technical name and subscription go into the entry. */
    environment?: Pick<EnvironmentRow, 'technicalName' | 'subscriptionId'> | undefined;
    subscriptionId?: number | undefined;
  };
  changes?: AuditChanges;
  outcome?: AuditOutcome;
};

export const auditEntryOf = (ctx: ServiceContext, draft: AuditDraft): AuditEntryInput => ({
  at: ctx.now,
  actor: { issuer: ctx.issuer, subject: ctx.caller.userId },
  action: draft.action,
  outcome: draft.outcome ?? 'success',
  target: {
    type: draft.target.type,
    id: draft.target.id,
    environment: draft.target.environment?.technicalName ?? undefined,
    subscriptionId: draft.target.subscriptionId ?? draft.target.environment?.subscriptionId,
  },
  sourceAddress: ctx.sourceAddress,
  traceId: ctx.traceId,
  changes: draft.changes ?? {},
});

/** Records the entry of a change with the transaction `tx` that makes it: both commit, or neither. */
export const recordChange = async (ctx: ServiceContext, tx: Db, draft: AuditDraft): Promise<void> => {
  if (ctx.auditing) await recordAudit(tx, auditEntryOf(ctx, draft));
};

/**
 * Runs `write` in a transaction and records its entry in that same transaction, once the write succeeded (a write
 * that throws rolls back and leaves no entry). Inside `write`, only `tx` may be used: on the embedded database a
 * query on the outer handle would wait for this very transaction.
 */
export const audited = <T>(
  ctx: ServiceContext,
  write: (tx: Db) => Promise<T>,
  draft: (result: T) => AuditDraft,
): Promise<T> =>
  ctx.database.db.transaction(async (tx) => {
    const result = await write(tx as unknown as Db);
    await recordChange(ctx, tx as unknown as Db, draft(result));
    return result;
  });
