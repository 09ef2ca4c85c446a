import type { TagRef } from '@platform/core';
import type { TagRow } from '@platform/store';
import type { EnvironmentInput } from '../connectors/schemas.ts';

export type TagInput = EnvironmentInput & { tagId: string };
export type CreateTagInput = EnvironmentInput & { body: { name: string } };
export type RenameTagInput = TagInput & { body: { name: string } };
export type TagList = { data: TagRef[] };

export const toTag = (row: TagRow): TagRef => ({ id: row.id, name: row.name });
