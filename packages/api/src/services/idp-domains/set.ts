import { normalizeIdpDomains } from '@platform/core';
import { listIdpDomains, replaceIdpDomains } from '@platform/store';
import { loadAdministeredSubscription } from '../access.ts';
import { audited } from '../audit/record.ts';
import type { Service } from '../context.ts';
import type { SetIdpDomainsInput } from './schemas.ts';

/**
 * `PUT /api/v1/subscriptions/{subscriptionId}/external-idp-domains` (docs/admin-api.md): replaces the whole list
 * (idempotent; `[]` clears it). Malformed id → 400; invisible → 404; not Owner/Admin → 403; bad entries → 400
 * naming each (`body[i]`). Answers 200 with no body.
 */
export const setIdpDomains: Service<SetIdpDomainsInput, void> = async (ctx, input) => {
  const { subscription } = await loadAdministeredSubscription(ctx, input.subscriptionId, 400);
  const domains = normalizeIdpDomains(input.body);
  await audited(
    ctx,
    async (tx) => {
      const before = await listIdpDomains(tx, subscription.id);
      await replaceIdpDomains(tx, subscription.id, domains);
      return before;
    },
    (before) => ({
      action: 'subscription.idpDomains.set',
      target: { type: 'subscription', id: subscription.guid, subscriptionId: subscription.id },
      changes: { externalIdpDomains: { from: before, to: domains } },
    }),
  );
  ctx.log.info(
    { subscriptionId: subscription.guid, domains: domains.length },
    'external idp domains replaced',
  );
};
