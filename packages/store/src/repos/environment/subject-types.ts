import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { subjectTypes } from '../../schema/environment-api.ts';
import { STANDARD_SUBJECT_TYPES } from '../../subject-types.ts';
import type { Db } from '../../types.ts';

export type SubjectTypeRow = typeof subjectTypes.$inferSelect;

const byName = [sql`${subjectTypes.name} collate "C"`, asc(subjectTypes.id)];

const list = (db: Db, environmentId: number) =>
  db
    .select({ id: subjectTypes.id, name: subjectTypes.name })
    .from(subjectTypes)
    .where(eq(subjectTypes.environmentId, environmentId))
    .orderBy(...byName);

/**
 * The environment's subject types, by name. An environment that has none (created before subject types
 * existed, or by hand) is given the standard set first; the unique (environment, name) index makes two
 * concurrent first reads harmless.
 */
export const listSubjectTypes = async (
  db: Db,
  environmentId: number,
): Promise<{ id: string; name: string }[]> => {
  const rows = await list(db, environmentId);
  if (rows.length > 0) return rows;
  await db
    .insert(subjectTypes)
    .values(STANDARD_SUBJECT_TYPES.map((name) => ({ id: randomUUID(), environmentId, name })))
    .onConflictDoNothing();
  return list(db, environmentId);
};

export const findSubjectType = async (
  db: Db,
  environmentId: number,
  subjectTypeId: string,
): Promise<SubjectTypeRow | undefined> => {
  const [row] = await db
    .select()
    .from(subjectTypes)
    .where(and(eq(subjectTypes.environmentId, environmentId), eq(subjectTypes.id, subjectTypeId)))
    .limit(1);
  return row;
};
