import type { TagRef } from '@platform/core';
import type { TagRow } from '@platform/store';
import type { EnvironmentInput } from '../connectors/schemas.ts';

export type TagInput = EnvironmentInput & { tagId: string };
export type CreateTagInput = EnvironmentInput & { body: { name: string } };
export type RenameTagInput = TagInput & { body: { name: string } };
/** A plain listing, or a page when the caller asked for one (`limit`, `nextPageToken`). */
export type TagList =
  | { data: TagRef[] }
  | { data: TagRef[]; pageSize: number; links: { nextPage: string | null } };

export const toTag = (row: TagRow): TagRef => ({ id: row.id, name: row.name });
