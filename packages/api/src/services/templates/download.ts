import { findTemplateContent } from '@platform/store';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { templateNotFound } from './load.ts';
import type { TemplateDocument, TemplateInput } from './schemas.ts';

/** `GET .../templates/{templateId}/download`: the template document as stored (`null` when none was given). */
export const downloadTemplate: Service<TemplateInput, TemplateDocument> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const content = await findTemplateContent(ctx.database.db, environment.id, input.templateId.toLowerCase());
  if (content === undefined) throw templateNotFound(input.templateId);
  return JSON.parse(content) as TemplateDocument;
};
