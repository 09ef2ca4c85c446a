import { type Template, ValidationError } from '@platform/core';
import { replaceTemplateTags, tagsOfTemplates } from '@platform/store';
import { audited } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { loadTemplate, withTags } from './load.ts';
import type { SetTemplateTagsInput } from './schemas.ts';

/**
 * `PUT .../templates/{templateId}/tags` `{tagIds}`: replaces the template's tags (`[]` removes them all);
 * duplicates collapse. An id that is not a tag of this environment → 400 naming it, nothing changed.
 */
/** 400 naming each unknown id by its place in the body. */
const unknownTags = (wanted: readonly string[], unknown: readonly string[]): ValidationError => {
  const errors: Record<string, string[]> = {};
  wanted.forEach((id, i) => {
    if (unknown.includes(id)) errors[`tagIds[${i}]`] = [`no tag ${id} in this environment`];
  });
  return new ValidationError(
    `Unknown tag ids at ${Object.keys(errors).join(', ')}: create the tags first (POST .../tags); nothing was changed.`,
    errors,
  );
};

export const setTemplateTags: Service<SetTemplateTagsInput, Template> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const template = await loadTemplate(ctx, environment.id, input.templateId);
  const wanted = input.body.tagIds.map((id) => id.toLowerCase());
  await audited(
    ctx,
    async (tx) => {
      const before = (await tagsOfTemplates(tx, [template.id])).get(template.id) ?? [];
      const written = await replaceTemplateTags(
        tx,
        { environmentId: environment.id, templateId: template.id },
        wanted,
      );
      // Nothing was written: throwing here leaves no entry either.
      if (written.unknown.length > 0) throw unknownTags(wanted, written.unknown);
      return { ...written, before };
    },
    ({ before }) => ({
      action: 'template.tags.set',
      target: { type: 'template', id: template.id, environment },
      changes: { tagIds: { from: before.map((tag) => tag.id), to: [...new Set(wanted)] } },
    }),
  );
  return withTags(ctx, template);
};
