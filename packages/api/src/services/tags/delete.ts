import { deleteTag as deleteTagRow } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { tagNotFound } from './load.ts';
import type { TagInput } from './schemas.ts';

/** `DELETE .../tags/{tagId}` → 204; the tag is removed from every template that carried it. */
export const deleteTag: Service<TagInput, void> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const deleted = await deleteTagRow(ctx.database.db, environment.id, input.tagId.toLowerCase());
  if (!deleted) throw tagNotFound(input.tagId);
};
