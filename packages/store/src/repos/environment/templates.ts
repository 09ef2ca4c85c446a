import { and, asc, eq, exists, gt, or, type SQL, sql } from 'drizzle-orm';
import { templates, templateTags } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';

export type TemplateRow = typeof templates.$inferSelect;

/** Where a page starts: after the template with this name and id (the listing order). */
export type TemplateCursor = { name: string; id: string };

export type TemplateFilter = {
  /** Case-insensitive substring of the name. */
  search?: string | undefined;
  /** Only templates carrying this tag. */
  tagId?: string | undefined;
  after?: TemplateCursor | undefined;
  limit: number;
};

// Code-point order, so a cursor means the same on PGlite and PostgreSQL whatever the database's collation.
const nameC = sql`${templates.name} collate "C"`;

/** One page of an environment's templates by name then id, and whether more follow. */
export const listTemplates = async (
  db: Db,
  environmentId: number,
  filter: TemplateFilter,
): Promise<{ rows: TemplateRow[]; more: boolean }> => {
  const conditions: (SQL | undefined)[] = [eq(templates.environmentId, environmentId)];
  if (filter.search) conditions.push(sql`strpos(lower(${templates.name}), lower(${filter.search})) > 0`);
  if (filter.tagId) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(templateTags)
          .where(and(eq(templateTags.templateId, templates.id), eq(templateTags.tagId, filter.tagId))),
      ),
    );
  }
  if (filter.after) {
    const { name, id } = filter.after;
    conditions.push(
      or(
        sql`${nameC} > ${name}::text collate "C"`,
        and(sql`${nameC} = ${name}::text collate "C"`, gt(templates.id, id)),
      ),
    );
  }
  const rows = await db
    .select()
    .from(templates)
    .where(and(...conditions))
    .orderBy(nameC, asc(templates.id))
    .limit(filter.limit + 1);
  return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
};

export const findTemplate = async (
  db: Db,
  environmentId: number,
  templateId: string,
): Promise<TemplateRow | undefined> => {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.environmentId, environmentId), eq(templates.id, templateId)))
    .limit(1);
  return row;
};

export const insertTemplate = async (db: Db, values: TemplateRow): Promise<TemplateRow> => {
  const [row] = await db.insert(templates).values(values).returning();
  return row!;
};

export const updateTemplate = async (
  db: Db,
  environmentId: number,
  templateId: string,
  changes: Partial<Pick<TemplateRow, 'name' | 'content' | 'contentModifiedAt'>>,
): Promise<TemplateRow | undefined> => {
  if (Object.keys(changes).length === 0) return findTemplate(db, environmentId, templateId);
  const [row] = await db
    .update(templates)
    .set(changes)
    .where(and(eq(templates.environmentId, environmentId), eq(templates.id, templateId)))
    .returning();
  return row;
};

/** Deletes a template; its tag assignments go with it (foreign key cascade). */
export const deleteTemplate = async (db: Db, environmentId: number, templateId: string): Promise<boolean> => {
  const deleted = await db
    .delete(templates)
    .where(and(eq(templates.environmentId, environmentId), eq(templates.id, templateId)))
    .returning({ id: templates.id });
  return deleted.length > 0;
};
