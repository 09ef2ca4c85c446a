import { eq, sql } from 'drizzle-orm';
import { platformMeta, subscriptions, users } from '../schema/admin.ts';
import type { Db } from '../types.ts';

const DEMO_KEY = 'demo-data';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const markDemoData = async (tx: Db | Tx, loadedAt: Date): Promise<void> => {
  await tx
    .insert(platformMeta)
    .values({ key: DEMO_KEY, value: loadedAt.toISOString() })
    .onConflictDoUpdate({ target: platformMeta.key, set: { value: loadedAt.toISOString() } });
};

/**
 * The demo data set is a placeholder for a first look: the first real data file replaces it whole, so a user's
 * own subscriptions never mix with (or collide with the ids of) demo rows. Runs inside the import's transaction.
 */
export const removeDemoDataIfPresent = async (tx: Tx): Promise<boolean> => {
  const marker = await tx.select().from(platformMeta).where(eq(platformMeta.key, DEMO_KEY));
  if (marker.length === 0) return false;
  // Environments, memberships, render usage, connectors, templates and media go with their subscription.
  await tx.delete(subscriptions).where(sql`true`);
  await tx.delete(users).where(sql`true`);
  await tx.delete(platformMeta).where(eq(platformMeta.key, DEMO_KEY));
  return true;
};
