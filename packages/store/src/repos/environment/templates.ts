import { and, asc, eq, exists, getTableColumns, gt, or, type SQL, sql } from 'drizzle-orm';
import { templates, templateTags } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';

/** A template without its document: listings and records never carry the (up to 5 MiB) content. */
export type TemplateRow = Omit<typeof templates.$inferSelect, 'content'>;

const { content: _content, ...recordColumns } = getTableColumns(templates);

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
    .select(recordColumns)
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
    .select(recordColumns)
    .from(templates)
    .where(and(eq(templates.environmentId, environmentId), eq(templates.id, templateId)))
    .limit(1);
  return row;
};

/** The document of a template, as the JSON text it was stored as; undefined when there is no such template. */
export const findTemplateContent = async (
  db: Db,
  environmentId: number,
  templateId: string,
): Promise<string | undefined> => {
  const [row] = await db
    .select({ content: templates.content })
    .from(templates)
    .where(and(eq(templates.environmentId, environmentId), eq(templates.id, templateId)))
    .limit(1);
  return row?.content;
};

export const insertTemplate = async (
  db: Db,
  values: typeof templates.$inferInsert & { content: string },
): Promise<TemplateRow> => {
  const [row] = await db.insert(templates).values(values).returning(recordColumns);
  return row!;
};

/**
 * Renames a template and/or replaces its document (JSON text). `contentModifiedAt` takes `now` only when the
 * text differs from the stored one, compared in the same statement, so two writers cannot both miss a change.
 */
export const updateTemplate = async (
  db: Db,
  environmentId: number,
  templateId: string,
  changes: { name?: string; content?: string; now: Date },
): Promise<TemplateRow | undefined> => {
  const { name, content, now } = changes;
  if (name === undefined && content === undefined) return findTemplate(db, environmentId, templateId);
  const [row] = await db
    .update(templates)
    .set({
      ...(name === undefined ? {} : { name }),
      ...(content === undefined
        ? {}
        : {
            content,
            contentModifiedAt: sql`case when ${templates.content} is distinct from ${content} then ${now.toISOString()}::timestamptz else ${templates.contentModifiedAt} end`,
          }),
    })
    .where(and(eq(templates.environmentId, environmentId), eq(templates.id, templateId)))
    .returning(recordColumns);
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
