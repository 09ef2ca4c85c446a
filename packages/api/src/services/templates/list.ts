import { isGuid, NotFoundError, type TemplatePage } from '@platform/core';
import { listTemplates as listTemplateRows, tagsOfTemplates } from '@platform/store';
import type { z } from 'zod';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { decodePageToken, encodePageToken } from './page-token.ts';
import { type ListTemplatesInput, toTemplate } from './schemas.ts';

export const DEFAULT_PAGE_SIZE = 25;

/**
 * `GET .../templates?search=&tagId=&limit=&nextPageToken=`: templates by name, a page at a time. `pageSize` is
 * the page size in effect; `links.nextPage` is the absolute URL of the next page (same filters), null on the last.
 */
export const listTemplates: Service<ListTemplatesInput, z.infer<typeof TemplatePage>> = async (
  ctx,
  input,
) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  // A malformed id cannot name anything: 404, as the query subscriptionId of the environment list (errors.md).
  if (input.tagId !== undefined && !isGuid(input.tagId)) {
    throw new NotFoundError('The tagId query parameter names no tag of this environment.');
  }
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  const after = input.nextPageToken === undefined ? undefined : decodePageToken(input.nextPageToken);
  const { db } = ctx.database;
  const { rows, more } = await listTemplateRows(db, environment.id, {
    search: input.search,
    tagId: input.tagId?.toLowerCase(),
    after,
    limit,
  });
  const tags = await tagsOfTemplates(
    db,
    rows.map((r) => r.id),
  );
  const last = rows.at(-1);
  let nextPage: string | null = null;
  if (more && last) {
    const query = new URLSearchParams();
    if (input.search) query.set('search', input.search);
    if (input.tagId) query.set('tagId', input.tagId);
    query.set('limit', String(limit));
    query.set('nextPageToken', encodePageToken(last));
    nextPage = `${ctx.publicUrl.replace(/\/$/, '')}/grafx/api/v1/environment/${encodeURIComponent(input.environment)}/templates?${query}`;
  }
  return {
    data: rows.map((row) => toTemplate(row, tags.get(row.id) ?? [])),
    pageSize: limit,
    links: { nextPage },
  };
};
