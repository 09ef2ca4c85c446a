import { NotFoundError } from '@platform/core';
import { findSubjectType, listSubjectTypes, mediaSubjectTypeStates } from '@platform/store';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { loadMedia } from './load.ts';
import {
  type MediaKind,
  type MediaSubjectTypeInput,
  type MediaSubjectTypeView,
  mediaIdOf,
} from './schemas.ts';

/**
 * `GET .../media/{mediaId}/vision/subject-types/{subjectTypeId}` and the external-media twin: whether the asset
 * has the subject type. One never set reads `assigned: false` with `updatedAt: null`.
 */
const getSubjectTypeOf =
  (kind: MediaKind): Service<MediaSubjectTypeInput, MediaSubjectTypeView> =>
  async (ctx, input) => {
    const { environment } = await readEnvironment(ctx, input.environment);
    const asset = await loadMedia(ctx, environment.id, mediaIdOf(input), kind);
    const { db } = ctx.database;
    await listSubjectTypes(db, environment.id);
    const subjectType = await findSubjectType(db, environment.id, input.subjectTypeId.toLowerCase());
    if (!subjectType) {
      throw new NotFoundError(`Subject type '${input.subjectTypeId}' was not found in this environment.`);
    }
    const [state] = await mediaSubjectTypeStates(db, asset.id, [subjectType.id]);
    return {
      subjectTypeId: subjectType.id,
      name: subjectType.name,
      assigned: state?.assigned ?? false,
      updatedAt: state?.updatedAt.toISOString() ?? null,
    };
  };

export const getMediaSubjectType = getSubjectTypeOf({ external: false });
export const getExternalMediaSubjectType = getSubjectTypeOf({ external: true });
