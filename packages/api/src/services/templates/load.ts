import { NotFoundError } from '@platform/core';
import { findTemplate, type TemplateRow, tagsOfTemplates } from '@platform/store';
import type { ServiceContext } from '../context.ts';
import { toTemplate } from './schemas.ts';

export const templateNotFound = (templateId: string) =>
  new NotFoundError(`Template '${templateId}' was not found in this environment.`);

/** A template of the environment, or 404. */
export const loadTemplate = async (
  ctx: ServiceContext,
  environmentId: number,
  templateId: string,
): Promise<TemplateRow> => {
  const row = await findTemplate(ctx.database.db, environmentId, templateId.toLowerCase());
  if (!row) throw templateNotFound(templateId);
  return row;
};

/** The Template record of a row, with its tags. */
export const withTags = async (ctx: ServiceContext, row: TemplateRow) => {
  const tags = await tagsOfTemplates(ctx.database.db, [row.id]);
  return toTemplate(row, tags.get(row.id) ?? []);
};
