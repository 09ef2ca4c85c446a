import type { Template } from '@platform/core';
import { updateTemplate as updateTemplateRow } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { loadTemplate, templateNotFound, withTags } from './load.ts';
import type { UpdateTemplateInput } from './schemas.ts';

/**
 * `PUT .../templates/{templateId}` `{name?, content?}`: only the fields given change. `LastModifiedContentUtc`
 * moves only when the content really changes: a rename, or the same content sent again, leaves it alone.
 */
export const updateTemplate: Service<UpdateTemplateInput, Template> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const current = await loadTemplate(ctx, environment.id, input.templateId);
  const { name, content } = input.body;
  const row = await updateTemplateRow(ctx.database.db, environment.id, current.id, {
    ...(name === undefined ? {} : { name }),
    // The same JSON text means the same document: the store moves the date only when the text differs.
    ...(content === undefined ? {} : { content: JSON.stringify(content) }),
    now: ctx.now,
  });
  if (!row) throw templateNotFound(input.templateId);
  return withTags(ctx, row);
};
