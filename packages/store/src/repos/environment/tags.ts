import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { tags, templateTags } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';
import { withinTransaction } from '../../within-transaction.ts';

export type TagRow = typeof tags.$inferSelect;

const byName = [sql`lower(${tags.name}) collate "C"`, asc(tags.id)];

export const listTags = (db: Db, environmentId: number): Promise<TagRow[]> =>
  db
    .select()
    .from(tags)
    .where(eq(tags.environmentId, environmentId))
    .orderBy(...byName);

/**
 * One page of the environment's tags in listing order, after the tag with this name and id when given; `more`
 * tells whether another page follows.
 */
export const listTagsPage = async (
  db: Db,
  environmentId: number,
  page: { after?: { name: string; id: string } | undefined; limit: number },
): Promise<{ rows: TagRow[]; more: boolean }> => {
  const after = page.after
    ? sql`(lower(${tags.name}) collate "C", ${tags.id}) > (lower(${page.after.name}) collate "C", ${page.after.id}::uuid)`
    : undefined;
  const rows = await db
    .select()
    .from(tags)
    .where(and(eq(tags.environmentId, environmentId), after))
    .orderBy(...byName)
    .limit(page.limit + 1);
  return { rows: rows.slice(0, page.limit), more: rows.length > page.limit };
};

export const findTag = async (db: Db, environmentId: number, tagId: string): Promise<TagRow | undefined> => {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.environmentId, environmentId), eq(tags.id, tagId)))
    .limit(1);
  return row;
};

/** The tag of this environment named `name` without regard to case, if any. */
export const findTagByName = async (
  db: Db,
  environmentId: number,
  name: string,
): Promise<TagRow | undefined> => {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.environmentId, environmentId), sql`lower(${tags.name}) = lower(${name})`))
    .limit(1);
  return row;
};

/** Which of `tagIds` are tags of this environment. */
export const existingTagIds = async (
  db: Db,
  environmentId: number,
  tagIds: readonly string[],
): Promise<Set<string>> => {
  if (tagIds.length === 0) return new Set();
  const rows = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.environmentId, environmentId), inArray(tags.id, [...tagIds])));
  return new Set(rows.map((r) => r.id));
};

/** Inserts a tag; the unique index on (environment, lower(name)) refuses a duplicate name (SQLSTATE 23505). */
export const insertTag = async (db: Db, values: TagRow): Promise<TagRow> => {
  const [row] = await db.insert(tags).values(values).returning();
  return row!;
};

export const renameTag = async (
  db: Db,
  environmentId: number,
  tagId: string,
  name: string,
): Promise<TagRow | undefined> => {
  const [row] = await db
    .update(tags)
    .set({ name })
    .where(and(eq(tags.environmentId, environmentId), eq(tags.id, tagId)))
    .returning();
  return row;
};

/** Deletes a tag; its template assignments go with it (foreign key cascade). */
export const deleteTag = async (db: Db, environmentId: number, tagId: string): Promise<boolean> => {
  const deleted = await db
    .delete(tags)
    .where(and(eq(tags.environmentId, environmentId), eq(tags.id, tagId)))
    .returning({ id: tags.id });
  return deleted.length > 0;
};

/**
 * Replaces the tags of a template, in one transaction. Every id must be a tag of the environment: the unknown
 * ones are returned and nothing is written.
 */
export const replaceTemplateTags = (
  db: Db,
  target: { environmentId: number; templateId: string },
  tagIds: readonly string[],
): Promise<{ unknown: string[] }> =>
  withinTransaction(db, async (tx) => {
    const wanted = [...new Set(tagIds)];
    const known = await existingTagIds(tx, target.environmentId, wanted);
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) return { unknown };
    await tx.delete(templateTags).where(eq(templateTags.templateId, target.templateId));
    if (wanted.length > 0) {
      await tx.insert(templateTags).values(wanted.map((tagId) => ({ templateId: target.templateId, tagId })));
    }
    return { unknown };
  });

/** The tags of each of `templateIds`, by name. */
export const tagsOfTemplates = async (
  db: Db,
  templateIds: readonly string[],
): Promise<Map<string, { id: string; name: string }[]>> => {
  const out = new Map<string, { id: string; name: string }[]>();
  if (templateIds.length === 0) return out;
  const rows = await db
    .select({ templateId: templateTags.templateId, id: tags.id, name: tags.name })
    .from(templateTags)
    .innerJoin(tags, eq(tags.id, templateTags.tagId))
    .where(inArray(templateTags.templateId, [...templateIds]))
    .orderBy(...byName);
  for (const { templateId, id, name } of rows) {
    const list = out.get(templateId) ?? [];
    list.push({ id, name });
    out.set(templateId, list);
  }
  return out;
};
