import { eq } from 'drizzle-orm';
import { platformMeta } from '../../schema/admin.ts';
import type { Db } from '../../types.ts';

/**
 * A value every replica sharing the database must agree on (the development issuer's signing key): the first
 * replica to need it stores what `create` makes, every other one (and every later start) reads that same value.
 * Replicas starting together race on the insert; the loser's value is dropped by the primary key, never used.
 */
export const loadOrStoreSharedValue = async (
  db: Db,
  key: string,
  create: () => Promise<string>,
): Promise<string> => {
  const read = async () =>
    (await db.select({ value: platformMeta.value }).from(platformMeta).where(eq(platformMeta.key, key)))[0]
      ?.value;
  const existing = await read();
  if (existing !== undefined) return existing;
  await db
    .insert(platformMeta)
    .values({ key, value: await create() })
    .onConflictDoNothing();
  const stored = await read();
  if (stored === undefined) throw new Error(`platform_meta ${key} vanished right after it was stored`);
  return stored;
};
