import { normalizeIdpDomains } from '@platform/core';
import { replaceIdpDomains } from '@platform/store';
import { loadAdministeredSubscription } from '../access.ts';
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
  await replaceIdpDomains(ctx.database.db, subscription.id, domains);
  ctx.log.info(
    { subscriptionId: subscription.guid, domains: domains.length },
    'external idp domains replaced',
  );
};
