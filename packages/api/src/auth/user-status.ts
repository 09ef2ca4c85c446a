import { ForbiddenError } from '@platform/core';
import { type Database, findUserStatus } from '@platform/store';
import type { ReadCache } from '../services/read-cache.ts';

/** What a subject the database does not list is kept as: a token may name a user not imported yet. */
const UNLISTED = 'Unlisted';

const disabledError = () =>
  new ForbiddenError('This user is disabled: an administrator of the platform can enable them again.');

/**
 * The refusal of a caller whose user status is `Disabled` (docs/authentication.md), or undefined: at once when the
 * status is in the read cache (it is until the users table changes anywhere: the database's change notifications
 * drop it), else once read. Every request with a token passes here, the proxy's included, so a warm one reads nothing.
 */
export type DisabledCheck = (
  userId: string,
) => ForbiddenError | undefined | Promise<ForbiddenError | undefined>;

export const createDisabledCheck = (database: Database, reads: ReadCache): DisabledCheck => {
  const refusalOf = (status: string) => (status === 'Disabled' ? disabledError() : undefined);
  return (userId) => {
    const key = `user-status\u0000${userId}`;
    const kept = reads.peek<string>(key);
    if (kept !== undefined) return refusalOf(kept);
    return reads
      .read(key, async () => (await findUserStatus(database.db, userId)) ?? UNLISTED)
      .then(refusalOf);
  };
};
