import { randomUUID } from 'node:crypto';
import type { Template } from '@platform/core';
import { insertTemplate } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { withinTemplateQuota } from '../quotas.ts';
import { type CreateTemplateInput, toTemplate } from './schemas.ts';

/**
 * `POST .../templates` `{name, content?}` → 201: created and content-modified at the same instant, no tags. The
 * document is stored as JSON text; without `content` it is `null`.
 */
export const createTemplate: Service<CreateTemplateInput, Template> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const row = await withinTemplateQuota(ctx, environment, (db) =>
    insertTemplate(db, {
      id: randomUUID(),
      environmentId: environment.id,
      name: input.body.name,
      content: JSON.stringify(input.body.content ?? null),
      createdAt: ctx.now,
      contentModifiedAt: ctx.now,
    }),
  );
  return toTemplate(row, []);
};
