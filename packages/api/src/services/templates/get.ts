import type { Template } from '@platform/core';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { loadTemplate, withTags } from './load.ts';
import type { TemplateInput } from './schemas.ts';

/** `GET .../templates/{templateId}`. */
export const getTemplate: Service<TemplateInput, Template> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const id = input.templateId.toLowerCase();
  // Kept until a change of the environment's content (from any replica), as the connector list is.
  return ctx.reads.read(`template\u0000${environment.id}\u0000${id}`, async () =>
    withTags(ctx, await loadTemplate(ctx, environment.id, input.templateId)),
  );
};
