import { asc, eq } from 'drizzle-orm';
import { externalIdpDomains } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';
import { withinTransaction } from '../../within-transaction.ts';

/** The allowed identity-provider domains of a subscription, in the order they were set. */
export const listIdpDomains = async (db: Db, subscriptionId: number): Promise<string[]> => {
  const rows = await db
    .select({ domain: externalIdpDomains.domain })
    .from(externalIdpDomains)
    .where(eq(externalIdpDomains.subscriptionId, subscriptionId))
    .orderBy(asc(externalIdpDomains.position));
  return rows.map((row) => row.domain);
};

/**
 * Replaces the whole list in one transaction (docs/admin-api.md: idempotent, `[]` clears it). `domains` must
 * already be normalized and free of duplicates.
 */
export const replaceIdpDomains = (
  db: Db,
  subscriptionId: number,
  domains: readonly string[],
): Promise<void> =>
  withinTransaction(db, async (tx) => {
    await tx.delete(externalIdpDomains).where(eq(externalIdpDomains.subscriptionId, subscriptionId));
    if (domains.length > 0) {
      await tx
        .insert(externalIdpDomains)
        .values(domains.map((domain, position) => ({ subscriptionId, domain, position })));
    }
  });
