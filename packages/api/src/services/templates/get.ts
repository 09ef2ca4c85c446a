import type { Template } from '@platform/core';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { loadTemplate, withTags } from './load.ts';
import type { TemplateInput } from './schemas.ts';

/** `GET .../templates/{templateId}`. */
export const getTemplate: Service<TemplateInput, Template> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  return withTags(ctx, await loadTemplate(ctx, environment.id, input.templateId));
};
