import { deleteTemplate as deleteTemplateRow, findTemplate, findTemplateContent } from '@platform/store';
import { audited } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { templateNotFound } from './load.ts';
import type { TemplateInput } from './schemas.ts';

/** `DELETE .../templates/{templateId}` → 204, with its tag assignments. */
export const deleteTemplate: Service<TemplateInput, void> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const templateId = input.templateId.toLowerCase();
  await audited(
    ctx,
    async (tx) => {
      const before = await findTemplate(tx, environment.id, templateId);
      // The document as it was, for its fingerprint: what was deleted can be matched to what an earlier entry set.
      const content = before ? await findTemplateContent(tx, environment.id, before.id) : undefined;
      if (!before || !(await deleteTemplateRow(tx, environment.id, templateId))) {
        throw templateNotFound(input.templateId);
      }
      return { before, content };
    },
    ({ before, content }) => ({
      action: 'template.delete',
      target: { type: 'template', id: before.id, environment },
      changes: {
        name: { from: before.name },
        ...(content === undefined ? {} : { content: { from: ctx.fingerprint(content) } }),
      },
    }),
  );
};
