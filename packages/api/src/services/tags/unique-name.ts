import { ConflictError } from '@platform/core';
import { findTagByName, isUniqueViolation } from '@platform/store';
import type { ServiceContext } from '../context.ts';

const taken = (name: string) =>
  new ConflictError(
    `A tag named '${name}' already exists in this environment (names ignore case); choose another name.`,
  );

/**
 * Runs a tag write under the rule that names are unique per environment without regard to case (409). The
 * check gives the clear answer; the unique index catches a concurrent writer between check and write.
 */
export const withUniqueTagName = async <T>(
  ctx: ServiceContext,
  environmentId: number,
  name: string,
  exceptTagId: string | undefined,
  write: () => Promise<T>,
): Promise<T> => {
  const existing = await findTagByName(ctx.database.db, environmentId, name);
  if (existing && existing.id !== exceptTagId) throw taken(name);
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(name);
    throw error;
  }
};
