import { randomUUID } from 'node:crypto';
import type { Template } from '@platform/core';
import { insertTemplate } from '@platform/store';
import { recordChange } from '../audit/record.ts';
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
  const content = JSON.stringify(input.body.content ?? null);
  const row = await withinTemplateQuota(ctx, environment, async (db) => {
    const created = await insertTemplate(db, {
      id: randomUUID(),
      environmentId: environment.id,
      name: input.body.name,
      content,
      createdAt: ctx.now,
      contentModifiedAt: ctx.now,
    });
    await recordChange(ctx, db, {
      action: 'template.create',
      target: { type: 'template', id: created.id, environment },
      // The document as a fingerprint: it may be megabytes, and "which version" is what a reader compares.
      changes: { name: { to: created.name }, content: { to: ctx.fingerprint(content) } },
    });
    return created;
  });
  return toTemplate(row, []);
};
