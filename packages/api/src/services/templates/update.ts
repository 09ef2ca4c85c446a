import type { Template } from '@platform/core';
import { findTemplateContent, updateTemplate as updateTemplateRow } from '@platform/store';
import { type AuditChanges, audited } from '../audit/record.ts';
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
  const text = content === undefined ? undefined : JSON.stringify(content);
  const { row } = await audited(
    ctx,
    async (tx) => {
      const changes: AuditChanges = {};
      if (name !== undefined) changes.name = { from: current.name, to: name };
      if (text !== undefined) {
        const before = await findTemplateContent(tx, environment.id, current.id);
        changes.content = {
          ...(before === undefined ? {} : { from: ctx.fingerprint(before) }),
          to: ctx.fingerprint(text),
        };
      }
      const row = await updateTemplateRow(tx, environment.id, current.id, {
        ...(name === undefined ? {} : { name }),
        // The same JSON text means the same document: the store moves the date only when the text differs.
        ...(text === undefined ? {} : { content: text }),
        now: ctx.now,
      });
      if (!row) throw templateNotFound(input.templateId);
      return { row, changes };
    },
    ({ changes }) => ({
      action: 'template.update',
      target: { type: 'template', id: current.id, environment },
      changes,
    }),
  );
  return withTags(ctx, row);
};
