import { type FieldErrors, ValidationError } from '@platform/core';
import {
  type Db,
  type EnvironmentRow,
  findMedia,
  listSubjectTypes,
  mediaSubjectTypeStates,
  setExternalMediaSubjectTypes,
  setMediaSubjectTypes,
} from '@platform/store';
import { recordChange } from '../audit/record.ts';
import type { Service, ServiceContext } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { withinEnvironmentCap } from '../quotas.ts';
import { loadMedia } from './load.ts';
import {
  type MediaKind,
  type MediaSubjectTypesView,
  mediaIdOf,
  type UpdateMediaSubjectTypesInput,
} from './schemas.ts';

/**
 * Every subject type of the environment with the asset's assignment (false where never set); `shownId` is the id
 * the caller named the asset by (an external asset's own id).
 */
const subjectTypesOf = async (
  ctx: ServiceContext,
  environmentId: number,
  mediaId: string,
  shownId: string,
): Promise<MediaSubjectTypesView> => {
  const all = await listSubjectTypes(ctx.database.db, environmentId);
  const states = new Map(
    (await mediaSubjectTypeStates(ctx.database.db, mediaId)).map((s) => [s.subjectTypeId, s]),
  );
  return {
    id: shownId,
    subjectTypes: all.map(({ id, name }) => {
      const state = states.get(id);
      return {
        subjectTypeId: id,
        name,
        assigned: state?.assigned ?? false,
        updatedAt: state?.updatedAt.toISOString() ?? null,
      };
    }),
  };
};

/** An external asset's first PUT records it, within the environment's media cap; a recorded one is only updated. */
const recordingExternal = async <T>(
  ctx: ServiceContext,
  environment: EnvironmentRow,
  externalId: string,
  write: (db: Db) => Promise<T>,
): Promise<T> =>
  (await findMedia(ctx.database.db, environment.id, externalId, true))
    ? write(ctx.database.db)
    : withinEnvironmentCap(ctx, 'media', environment, write);

/**
 * `PATCH .../media/{mediaId}` and `PUT .../external-media/{externalMediaId}/vision` `{subjectTypes: [{id, assigned}]}`:
 * sets one or many assignments at once and answers all of the asset's subject types. An unknown or repeated id →
 * 400 naming it (`subjectTypes[i].id`), and nothing is changed. Media must exist (404); an external asset is
 * recorded by its first successful PUT, since its source, not the platform, creates it.
 */
const updateSubjectTypesOf =
  (kind: MediaKind): Service<UpdateMediaSubjectTypesInput, MediaSubjectTypesView> =>
  async (ctx, input) => {
    const { environment } = await writeEnvironment(ctx, input.environment);
    const shownId = mediaIdOf(input);
    const asset = kind.external ? undefined : await loadMedia(ctx, environment.id, shownId, kind);
    const changes = input.body.subjectTypes.map((s) => ({
      subjectTypeId: s.id.toLowerCase(),
      assigned: s.assigned,
    }));
    const errors: FieldErrors = {};
    const first = new Map<string, number>();
    changes.forEach(({ subjectTypeId }, i) => {
      const earlier = first.get(subjectTypeId);
      if (earlier === undefined) first.set(subjectTypeId, i);
      else
        errors[`subjectTypes[${i}].id`] = [
          `repeats subjectTypes[${earlier}].id; give each subject type once`,
        ];
    });
    let mediaId = asset?.id;
    if (Object.keys(errors).length === 0) {
      // Seeds the standard set first, so an environment that has none can be given them in this same call.
      await listSubjectTypes(ctx.database.db, environment.id);
      const { db } = ctx.database;
      // The assignments and their audit entry in one transaction; a refusal (unknown ids) writes neither.
      const withEntry =
        <W extends { unknown: string[] }>(set: (tx: Db) => Promise<W>) =>
        (into: Db): Promise<W> =>
          into.transaction(async (tx) => {
            // What each assignment was (none on an asset never assigned), for the entry's `from`.
            const recorded =
              asset?.id ?? (await findMedia(tx as unknown as Db, environment.id, shownId, true))?.id;
            const was = new Map(
              recorded === undefined
                ? []
                : (await mediaSubjectTypeStates(tx as unknown as Db, recorded)).map((state) => [
                    state.subjectTypeId,
                    state.assigned,
                  ]),
            );
            const written = await set(tx as unknown as Db);
            if (written.unknown.length === 0) {
              await recordChange(ctx, tx as unknown as Db, {
                action: 'media.subjectTypes.set',
                target: { type: 'media', id: shownId, environment },
                changes: Object.fromEntries(
                  changes.map(({ subjectTypeId, assigned }) => [
                    `subjectTypes.${subjectTypeId}`,
                    was.has(subjectTypeId)
                      ? { from: was.get(subjectTypeId), to: assigned }
                      : { to: assigned },
                  ]),
                ),
              });
            }
            return written;
          });
      const written: { unknown: string[]; mediaId?: string } = asset
        ? await withEntry((tx) =>
            setMediaSubjectTypes(tx, { environmentId: environment.id, mediaId: asset.id }, changes, ctx.now),
          )(db)
        : await recordingExternal(
            ctx,
            environment,
            shownId,
            withEntry((tx) =>
              setExternalMediaSubjectTypes(
                tx,
                { environmentId: environment.id, externalId: shownId },
                changes,
                ctx.now,
              ),
            ),
          );
      const { unknown } = written;
      mediaId ??= written.mediaId;
      changes.forEach(({ subjectTypeId }, i) => {
        if (unknown.includes(subjectTypeId)) {
          errors[`subjectTypes[${i}].id`] = [`no subject type ${subjectTypeId} in this environment`];
        }
      });
    }
    if (Object.keys(errors).length > 0) {
      throw new ValidationError(
        `Check ${Object.keys(errors).join(', ')} (GET .../vision?expand=allSubjectTypes lists the subject types); nothing was changed.`,
        errors,
      );
    }
    if (mediaId === undefined) throw new Error('the media asset was neither found nor recorded');
    return subjectTypesOf(ctx, environment.id, mediaId, asset ? asset.id : shownId);
  };

export const updateMediaSubjectTypes = updateSubjectTypesOf({ external: false });
export const updateExternalMediaSubjectTypes = updateSubjectTypesOf({ external: true });
