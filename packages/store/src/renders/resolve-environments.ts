import { sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import type { Db } from '../types.ts';

/** Environment guid (lower case) → id, for the guids that exist. */
export const resolveEnvironmentIds = async (
  db: Pick<Db, 'execute'>,
  guids: Iterable<string>,
): Promise<Map<string, number>> => {
  const wanted = [...new Set([...guids].map((guid) => guid.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = await queryRows<{ id: number; guid: string }>(
    db,
    sql`select id, guid::text as guid from environments
        where guid in (select value::uuid from json_array_elements_text(${JSON.stringify(wanted)}::json))`,
  );
  return new Map(rows.map((row) => [row.guid, row.id]));
};
