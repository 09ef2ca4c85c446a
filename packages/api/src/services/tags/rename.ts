import type { TagRef } from '@platform/core';
import { renameTag as renameTagRow } from '@platform/store';
import { audited } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { loadTag, tagNotFound } from './load.ts';
import { type RenameTagInput, toTag } from './schemas.ts';
import { withUniqueTagName } from './unique-name.ts';

/** `PUT .../tags/{tagId}` `{name}`: renames; changing only the case of its own name is allowed; another tag's → 409. */
export const renameTag: Service<RenameTagInput, TagRef> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const tag = await loadTag(ctx, environment.id, input.tagId);
  const { name } = input.body;
  const row = await withUniqueTagName(ctx, environment.id, name, tag.id, () =>
    audited(
      ctx,
      async (tx) => {
        const renamed = await renameTagRow(tx, environment.id, tag.id, name);
        if (!renamed) throw tagNotFound(input.tagId);
        return renamed;
      },
      (renamed) => ({
        action: 'tag.update',
        target: { type: 'tag', id: renamed.id, environment },
        changes: { name: { from: tag.name, to: renamed.name } },
      }),
    ),
  );
  return toTag(row);
};
