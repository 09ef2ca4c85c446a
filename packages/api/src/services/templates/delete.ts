import { deleteTemplate as deleteTemplateRow } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { templateNotFound } from './load.ts';
import type { TemplateInput } from './schemas.ts';

/** `DELETE .../templates/{templateId}` → 204, with its tag assignments. */
export const deleteTemplate: Service<TemplateInput, void> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const deleted = await deleteTemplateRow(ctx.database.db, environment.id, input.templateId.toLowerCase());
  if (!deleted) throw templateNotFound(input.templateId);
};
