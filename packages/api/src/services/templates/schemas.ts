import type { Template } from '@platform/core';
import type { TemplateRow } from '@platform/store';
import type { EnvironmentInput } from '../connectors/schemas.ts';

export type ListTemplatesInput = EnvironmentInput & {
  search?: string | undefined;
  tagId?: string | undefined;
  limit?: number | undefined;
  nextPageToken?: string | undefined;
};
export type TemplateInput = EnvironmentInput & { templateId: string };
/** A template document: any JSON value (docs/environment-api.md). */
export type TemplateDocument = unknown;
export type CreateTemplateInput = EnvironmentInput & {
  body: { name: string; content?: TemplateDocument | undefined };
};
export type UpdateTemplateInput = TemplateInput & {
  body: { name?: string | undefined; content?: TemplateDocument | undefined };
};
export type SetTemplateTagsInput = TemplateInput & { body: { tagIds: string[] } };

/** The Template record of docs/environment-api.md (the content itself is not part of it). */
export const toTemplate = (row: TemplateRow, tags: { id: string; name: string }[]): Template => ({
  id: row.id,
  name: row.name,
  tags,
  DateCreated: row.createdAt.toISOString(),
  LastModifiedContentUtc: row.contentModifiedAt.toISOString(),
});
