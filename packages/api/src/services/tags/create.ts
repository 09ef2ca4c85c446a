import { randomUUID } from 'node:crypto';
import type { TagRef } from '@platform/core';
import { insertTag } from '@platform/store';
import { recordChange } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { withinEnvironmentCap } from '../quotas.ts';
import { type CreateTagInput, toTag } from './schemas.ts';
import { withUniqueTagName } from './unique-name.ts';

/** `POST .../tags` `{name}` → 201; a name already used in the environment (ignoring case) → 409. */
export const createTag: Service<CreateTagInput, TagRef> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const { name } = input.body;
  const row = await withUniqueTagName(ctx, environment.id, name, undefined, () =>
    withinEnvironmentCap(ctx, 'tags', environment, async (db) => {
      const tag = await insertTag(db, { id: randomUUID(), environmentId: environment.id, name });
      await recordChange(ctx, db, {
        action: 'tag.create',
        target: { type: 'tag', id: tag.id, environment },
        changes: { name: { to: tag.name } },
      });
      return tag;
    }),
  );
  return toTag(row);
};
