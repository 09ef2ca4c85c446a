import { listTags as listTagRows, listTagsPage } from '@platform/store';
import type { EnvironmentInput } from '../connectors/schemas.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { decodePageToken, encodePageToken } from '../templates/page-token.ts';
import { type TagList, toTag } from './schemas.ts';

export type ListTagsInput = EnvironmentInput & {
  limit?: number | undefined;
  nextPageToken?: string | undefined;
};

/**
 * `GET .../tags`: the environment's tags by name. A plain call answers `{data}` with every tag, as it always did
 * (an environment holds at most 1,000); with `limit` or `nextPageToken` it pages as templates do:
 * `{data, pageSize, links: {nextPage}}`.
 */
export const listTags: Service<ListTagsInput, TagList> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const { db } = ctx.database;
  if (input.limit === undefined && input.nextPageToken === undefined) {
    return { data: (await listTagRows(db, environment.id)).map(toTag) };
  }
  const limit = input.limit ?? DEFAULT_TAG_PAGE;
  const after = input.nextPageToken === undefined ? undefined : decodePageToken(input.nextPageToken);
  const { rows, more } = await listTagsPage(db, environment.id, { after, limit });
  const last = rows.at(-1);
  const query = new URLSearchParams({
    limit: String(limit),
    ...(last ? { nextPageToken: encodePageToken(last) } : {}),
  });
  const nextPage =
    more && last
      ? `${ctx.publicUrl.replace(/\/$/, '')}/grafx/api/v1/environment/${encodeURIComponent(input.environment)}/tags?${query}`
      : null;
  return { data: rows.map(toTag), pageSize: limit, links: { nextPage } };
};

const DEFAULT_TAG_PAGE = 100;
