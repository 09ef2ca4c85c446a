import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { media, mediaSubjectTypes, subjectTypes } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';
import { withinTransaction } from '../../within-transaction.ts';

export type MediaRow = typeof media.$inferSelect;

export const insertMedia = async (db: Db, values: MediaRow): Promise<MediaRow> => {
  const [row] = await db.insert(media).values(values).returning();
  return row!;
};

/**
 * A media asset of this environment, of the kind asked for: a media asset by its uuid, an external one by the id
 * its source gave it (exact, case-sensitive). An external one is not found as media, and back.
 */
export const findMedia = async (
  db: Db,
  environmentId: number,
  mediaId: string,
  external: boolean,
): Promise<MediaRow | undefined> => {
  const [row] = await db
    .select()
    .from(media)
    .where(
      and(
        eq(media.environmentId, environmentId),
        external ? eq(media.externalId, mediaId) : eq(media.id, mediaId),
        eq(media.external, external),
      ),
    )
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

type Tx = Db;
type Assignment = { subjectTypeId: string; assigned: boolean };

/** The ids of `changes` that are not subject types of the environment. */
const unknownSubjectTypes = async (
  tx: Tx,
  environmentId: number,
  changes: readonly Assignment[],
): Promise<string[]> => {
  const ids = [...new Set(changes.map((c) => c.subjectTypeId))];
  if (ids.length === 0) return [];
  const known = new Set(
    (
      await tx
        .select({ id: subjectTypes.id })
        .from(subjectTypes)
        .where(and(eq(subjectTypes.environmentId, environmentId), inArray(subjectTypes.id, ids)))
    ).map((r) => r.id),
  );
  return ids.filter((id) => !known.has(id));
};

const writeAssignments = async (tx: Tx, mediaId: string, changes: readonly Assignment[], now: Date) => {
  if (changes.length === 0) return;
  await tx
    .insert(mediaSubjectTypes)
    .values(changes.map((c) => ({ mediaId, ...c, updatedAt: now })))
    .onConflictDoUpdate({
      target: [mediaSubjectTypes.mediaId, mediaSubjectTypes.subjectTypeId],
      set: { assigned: sql`excluded.assigned`, updatedAt: now },
    });
};

/**
 * Sets several assignments of one media asset at once, in one transaction. Every id must be a subject type of
 * the environment: the unknown ones are returned and nothing is written.
 */
export const setMediaSubjectTypes = (
  db: Db,
  target: { environmentId: number; mediaId: string },
  changes: readonly Assignment[],
  now: Date,
): Promise<{ unknown: string[] }> =>
  withinTransaction(db, async (tx) => {
    const unknown = await unknownSubjectTypes(tx, target.environmentId, changes);
    if (unknown.length === 0) await writeAssignments(tx, target.mediaId, changes, now);
    return { unknown };
  });

/**
 * The same for an external media asset named by its source's id: the first call records the asset (named by that
 * id), in the same transaction, so a call refused for an unknown subject type records nothing either.
 */
export const setExternalMediaSubjectTypes = (
  db: Db,
  target: { environmentId: number; externalId: string },
  changes: readonly Assignment[],
  now: Date,
): Promise<{ unknown: string[]; mediaId?: string }> =>
  withinTransaction(db, async (tx) => {
    const unknown = await unknownSubjectTypes(tx, target.environmentId, changes);
    if (unknown.length > 0) return { unknown };
    const { environmentId, externalId } = target;
    await tx
      .insert(media)
      .values({
        id: randomUUID(),
        environmentId,
        external: true,
        externalId,
        name: externalId,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [media.environmentId, media.externalId] });
    const [row] = await tx
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.environmentId, environmentId), eq(media.externalId, externalId)))
      .limit(1);
    if (!row) throw new Error('the external media row was not written');
    await writeAssignments(tx, row.id, changes, now);
    return { unknown, mediaId: row.id };
  });
