import { deleteTag as deleteTagRow, findTag } from '@platform/store';
import { audited } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { tagNotFound } from './load.ts';
import type { TagInput } from './schemas.ts';

/** `DELETE .../tags/{tagId}` → 204; the tag is removed from every template that carried it. */
export const deleteTag: Service<TagInput, void> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const tagId = input.tagId.toLowerCase();
  await audited(
    ctx,
    async (tx) => {
      const before = await findTag(tx, environment.id, tagId);
      if (!before || !(await deleteTagRow(tx, environment.id, tagId))) throw tagNotFound(input.tagId);
      return before;
    },
    (before) => ({
      action: 'tag.delete',
      target: { type: 'tag', id: before.id, environment },
      changes: { name: { from: before.name } },
    }),
  );
};
