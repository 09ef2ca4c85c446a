import { type AuditPage, canAdministerSubscription, ForbiddenError, ValidationError } from '@platform/core';
import { administeredSubscriptionGuids, listAuditEntries, toAuditEntry } from '@platform/store';
import { loadSubscription } from '../access.ts';
import { isOperator, type Service } from '../context.ts';
import { decodeAuditPageToken, encodeAuditPageToken } from './page-token.ts';
import { DEFAULT_AUDIT_PAGE, type ListAuditInput } from './schemas.ts';

/** Whose entries the caller may read, narrowed to `subscriptionId` when given (docs/audit.md, "Who reads it"). */
const readableSubscriptions = async (
  ctx: Parameters<Service<ListAuditInput, AuditPage>>[0],
  subscriptionId: string | undefined,
): Promise<string[] | undefined> => {
  if (subscriptionId !== undefined) {
    // Malformed or unseen → 404 (an id that is not a guid names nothing, as for /api/v1/environments'
    // subscriptionId), seen without SubscriptionOwner or SubscriptionAdmin → 403.
    const { subscription, access } = await loadSubscription(ctx, subscriptionId, 404);
    if (!canAdministerSubscription(access)) {
      throw new ForbiddenError(
        "Reading a subscription's audit trail needs the SubscriptionOwner or SubscriptionAdmin role in it.",
      );
    }
    return [subscription.guid];
  }
  if (isOperator(ctx.caller)) return undefined;
  return administeredSubscriptionGuids(ctx.database.db, ctx.caller.userId);
};

/**
 * `GET /api/v1/audit`: the audit trail, newest first, a page at a time, under the filters given. Operators read
 * every entry; anyone else the entries of the subscriptions where it holds SubscriptionOwner or SubscriptionAdmin
 * (those of their environments included).
 */
export const listAudit: Service<ListAuditInput, AuditPage> = async (ctx, input) => {
  if (input.from && input.to && input.from > input.to) {
    throw new ValidationError('from is after to: give a range that starts before it ends.', {
      from: ['after to'],
    });
  }
  const after = input.nextPageToken === undefined ? undefined : decodeAuditPageToken(input.nextPageToken);
  const subscriptionGuids = await readableSubscriptions(ctx, input.subscriptionId);
  const limit = input.limit ?? DEFAULT_AUDIT_PAGE;
  const { db } = ctx.database;
  const { rows, next } = await listAuditEntries(
    db,
    {
      subscriptionGuids,
      environment: input.environment,
      actor: input.actor,
      action: input.action,
      from: input.from,
      to: input.to,
    },
    limit,
    after,
  );
  let nextPage: string | null = null;
  if (next) {
    const query = new URLSearchParams();
    if (input.subscriptionId) query.set('subscriptionId', input.subscriptionId);
    if (input.environment) query.set('environment', input.environment);
    if (input.actor) query.set('actor', input.actor);
    if (input.action) query.set('action', input.action);
    if (input.from) query.set('from', input.from.toISOString());
    if (input.to) query.set('to', input.to.toISOString());
    query.set('limit', String(limit));
    query.set('nextPageToken', encodeAuditPageToken(next));
    nextPage = `${ctx.publicUrl.replace(/\/$/, '')}/api/v1/audit?${query}`;
  }
  return { data: rows.map(toAuditEntry), pageSize: limit, links: { nextPage } };
};
