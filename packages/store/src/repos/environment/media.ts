import { and, eq, inArray, sql } from 'drizzle-orm';
import { media, mediaSubjectTypes, subjectTypes } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';

export type MediaRow = typeof media.$inferSelect;

export const insertMedia = async (db: Db, values: MediaRow): Promise<MediaRow> => {
  const [row] = await db.insert(media).values(values).returning();
  return row!;
};

/** A media asset of this environment, of the kind asked for: an external one is not found as media, and back. */
export const findMedia = async (
  db: Db,
  environmentId: number,
  mediaId: string,
  external: boolean,
): Promise<MediaRow | undefined> => {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.environmentId, environmentId), eq(media.id, mediaId), eq(media.external, external)))
    .limit(1);
  return row;
};

export type MediaSubjectTypeState = { subjectTypeId: string; assigned: boolean; updatedAt: Date };

/** The stored assignments of a media asset (subject types never set have no row). */
export const mediaSubjectTypeStates = async (
  db: Db,
  mediaId: string,
  subjectTypeIds?: readonly string[],
): Promise<MediaSubjectTypeState[]> => {
  const conditions = [eq(mediaSubjectTypes.mediaId, mediaId)];
  if (subjectTypeIds) conditions.push(inArray(mediaSubjectTypes.subjectTypeId, [...subjectTypeIds]));
  return db
    .select({
      subjectTypeId: mediaSubjectTypes.subjectTypeId,
      assigned: mediaSubjectTypes.assigned,
      updatedAt: mediaSubjectTypes.updatedAt,
    })
    .from(mediaSubjectTypes)
    .where(and(...conditions));
};

/**
 * Sets several assignments of one media asset at once, in one transaction. Every id must be a subject type of
 * the environment: the unknown ones are returned and nothing is written.
 */
export const setMediaSubjectTypes = (
  db: Db,
  target: { environmentId: number; mediaId: string },
  changes: readonly { subjectTypeId: string; assigned: boolean }[],
  now: Date,
): Promise<{ unknown: string[] }> =>
  db.transaction(async (tx) => {
    const ids = [...new Set(changes.map((c) => c.subjectTypeId))];
    const known = new Set(
      (
        await tx
          .select({ id: subjectTypes.id })
          .from(subjectTypes)
          .where(and(eq(subjectTypes.environmentId, target.environmentId), inArray(subjectTypes.id, ids)))
      ).map((r) => r.id),
    );
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0 || changes.length === 0) return { unknown };
    await tx
      .insert(mediaSubjectTypes)
      .values(changes.map((c) => ({ mediaId: target.mediaId, ...c, updatedAt: now })))
      .onConflictDoUpdate({
        target: [mediaSubjectTypes.mediaId, mediaSubjectTypes.subjectTypeId],
        set: { assigned: sql`excluded.assigned`, updatedAt: now },
      });
    return { unknown };
  });
