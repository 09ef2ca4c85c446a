import { type Template, ValidationError } from '@platform/core';
import { replaceTemplateTags } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { loadTemplate, withTags } from './load.ts';
import type { SetTemplateTagsInput } from './schemas.ts';

/**
 * `PUT .../templates/{templateId}/tags` `{tagIds}`: replaces the template's tags (`[]` removes them all);
 * duplicates collapse. An id that is not a tag of this environment → 400 naming it, nothing changed.
 */
export const setTemplateTags: Service<SetTemplateTagsInput, Template> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const template = await loadTemplate(ctx, environment.id, input.templateId);
  const wanted = input.body.tagIds.map((id) => id.toLowerCase());
  const { unknown } = await replaceTemplateTags(
    ctx.database.db,
    { environmentId: environment.id, templateId: template.id },
    wanted,
  );
  if (unknown.length > 0) {
    const errors: Record<string, string[]> = {};
    wanted.forEach((id, i) => {
      if (unknown.includes(id)) errors[`tagIds[${i}]`] = [`no tag ${id} in this environment`];
    });
    throw new ValidationError(
      `Unknown tag ids at ${Object.keys(errors).join(', ')}: create the tags first (POST .../tags); nothing was changed.`,
      errors,
    );
  }
  return withTags(ctx, template);
};
