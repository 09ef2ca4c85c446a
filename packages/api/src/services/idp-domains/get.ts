import { listIdpDomains } from '@platform/store';
import { loadSubscription } from '../access.ts';
import type { Service } from '../context.ts';
import type { GetIdpDomainsInput } from './schemas.ts';

/**
 * `GET /api/v1/subscriptions/{subscriptionId}/external-idp-domains` (an addition of docs/admin-api.md): the stored
 * list, in the order it was set. Reading needs only visibility; a malformed id → 400 as for the PUT.
 */
export const getIdpDomains: Service<GetIdpDomainsInput, string[]> = async (ctx, input) => {
  const { subscription } = await loadSubscription(ctx, input.subscriptionId, 400);
  return listIdpDomains(ctx.database.db, subscription.id);
};
