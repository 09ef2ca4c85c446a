import { NotFoundError } from '@platform/core';
import { findTag, type TagRow } from '@platform/store';
import type { ServiceContext } from '../context.ts';

export const tagNotFound = (tagId: string) =>
  new NotFoundError(`Tag '${tagId}' was not found in this environment.`);

export const loadTag = async (ctx: ServiceContext, environmentId: number, tagId: string): Promise<TagRow> => {
  const row = await findTag(ctx.database.db, environmentId, tagId.toLowerCase());
  if (!row) throw tagNotFound(tagId);
  return row;
};
