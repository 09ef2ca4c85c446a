import { NotFoundError } from '@platform/core';
import { findMedia, type MediaRow } from '@platform/store';
import type { ServiceContext } from '../context.ts';
import { type MediaKind, mediaLabel } from './schemas.ts';

/** A media asset of the environment and of the endpoint's kind, or 404. */
export const loadMedia = async (
  ctx: ServiceContext,
  environmentId: number,
  mediaId: string,
  kind: MediaKind,
): Promise<MediaRow> => {
  const row = await findMedia(ctx.database.db, environmentId, mediaId.toLowerCase(), kind.external);
  if (!row) throw new NotFoundError(`${mediaLabel(kind)} '${mediaId}' was not found in this environment.`);
  return row;
};
