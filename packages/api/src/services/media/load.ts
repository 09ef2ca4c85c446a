import { NotFoundError } from '@platform/core';
import { findMedia, type MediaRow } from '@platform/store';
import type { ServiceContext } from '../context.ts';
import { type MediaKind, mediaLabel } from './schemas.ts';

/**
 * A media asset of the environment and of the endpoint's kind, or 404: media by uuid (any case), external media by
 * the id its source gave it (exact).
 */
export const loadMedia = async (
  ctx: ServiceContext,
  environmentId: number,
  mediaId: string,
  kind: MediaKind,
): Promise<MediaRow> => {
  const id = kind.external ? mediaId : mediaId.toLowerCase();
  const row = await findMedia(ctx.database.db, environmentId, id, kind.external);
  if (!row) throw new NotFoundError(`${mediaLabel(kind)} '${mediaId}' was not found in this environment.`);
  return row;
};
