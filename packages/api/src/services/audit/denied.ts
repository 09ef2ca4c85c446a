import type { AuditAction } from '@platform/core';
import {
  type AuditTargetType,
  findEnvironmentByReference,
  findSubscriptionByGuid,
  recordAudit,
} from '@platform/store';
import type { ServiceContext } from '../context.ts';
import { type AuditDraft, auditEntryOf } from './record.ts';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' && !value.includes('\u0000') ? value : undefined;

/**
 * Records a write refused with 403 (docs/audit.md): who tried what on which target, outcome `denied`, no changes.
 * The target is named by the path parameters: the environment or subscription they name (when it exists) decides
 * who may read the entry. Never fails the request it describes: the 403 is answered whatever happens here.
 */
export const recordDenial = async (
  ctx: ServiceContext,
  audit: { action: AuditAction; target: AuditTargetType; targetParam?: string },
  input: unknown,
): Promise<void> => {
  if (!ctx.auditing) return;
  // A database that does not answer must not hold the 403 back until its statement timeout.
  if (!ctx.database.available()) {
    ctx.log.warn({ action: audit.action }, 'denied write not audited: the database does not answer');
    return;
  }
  const values = (input ?? {}) as Record<string, unknown>;
  try {
    const { db } = ctx.database;
    const reference = text(values.environment);
    const environment = reference ? await findEnvironmentByReference(db, reference) : undefined;
    const subscriptionGuid = text(values.subscriptionId);
    const subscription =
      subscriptionGuid && GUID.test(subscriptionGuid)
        ? await findSubscriptionByGuid(db, subscriptionGuid.toLowerCase())
        : undefined;
    const named = audit.targetParam ? text(values[audit.targetParam]) : undefined;
    const draft: AuditDraft = {
      action: audit.action,
      outcome: 'denied',
      target: {
        type: audit.target,
        // Nothing in the path names it (a data file has no id of its own): the request's trace does, as for the
        // accepted write.
        id: named ?? environment?.guid ?? subscription?.guid ?? reference ?? subscriptionGuid ?? ctx.traceId,
        environment: environment ?? undefined,
        subscriptionId: subscription?.id,
      },
    };
    await recordAudit(db, auditEntryOf(ctx, draft));
  } catch (error) {
    ctx.log.error({ err: error, action: audit.action }, 'denied write not audited');
  }
};
