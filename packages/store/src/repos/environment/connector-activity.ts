import { boundText } from '@platform/core';
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { type ActivityFetch, connectorActivity } from '../../schema/environment-api.ts';
import type { Db } from '../../types.ts';
import { isForeignKeyViolation } from './db-errors.ts';

export type { ActivityFetch };

/** Kept per connector: the newest this many entries, none older than `ACTIVITY_MAX_AGE_MS`. */
export const ACTIVITY_MAX_ENTRIES = 1000;
export const ACTIVITY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export type ActivityEntry = {
  connectorId: string;
  at: Date;
  method: string;
  usage: string;
  status: number;
  code: string | null;
  error: string | null;
  durationMs: number;
  fetches: ActivityFetch[];
  /** The connector's logError messages, redacted by the services. */
  logs?: string[];
};

/**
 * The texts of an entry cut to `ACTIVITY_TEXT_MAX_BYTES` each, whoever wrote it: the services redact and bound them
 * already; this keeps the table's rows small should any writer not (ten 10 MB errors must not grow it by 100 MB).
 * A NUL character, which PostgreSQL's text and jsonb refuse, becomes U+FFFD: left in, one connector's error text
 * failed the whole batch, every other connector's entries with it.
 */
const bounded = (entry: ActivityEntry): ActivityEntry => ({
  ...entry,
  error: entry.error === null ? null : storable(entry.error),
  fetches: entry.fetches.map((fetch) => ({
    ...fetch,
    method: storable(fetch.method),
    url: storable(fetch.url),
    ...(fetch.error === undefined ? {} : { error: storable(fetch.error) }),
  })),
  logs: (entry.logs ?? []).map(storable),
});

const storable = (text: string): string => boundText(text).replaceAll('\u0000', '\ufffd');

/** Rows per INSERT: a batch is one JSON parameter, kept to a few megabytes. */
const ROWS_PER_STATEMENT = 500;

/**
 * Writes entries in as few statements as they allow. A connector deleted since its entries were made takes them
 * with it: when a batch breaks on that, its rows are written one by one and the orphans skipped. Any other failure
 * (the database unavailable) is the caller's.
 */
export const insertConnectorActivity = async (db: Db, entries: readonly ActivityEntry[]): Promise<void> => {
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const rows = entries.slice(start, start + ROWS_PER_STATEMENT).map(bounded);
    try {
      await insertRows(db, rows);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      for (const row of rows) await insertUnlessOrphan(db, row);
    }
  }
};

const insertUnlessOrphan = async (db: Db, row: ActivityEntry): Promise<void> => {
  try {
    await insertRows(db, [row]);
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
  }
};

/**
 * One statement of one text whatever the batch's size: its rows go as a single JSON parameter. A run route writes an
 * entry per call (a Studio page, sixteen), and the query builder's statement of ten parameters a row cost twice the
 * database time per row on the embedded database, and as much again in the builder.
 */
const insertRows = (db: Db, rows: readonly ActivityEntry[]) =>
  db.execute(sql`
    insert into ${connectorActivity}
      (connector_id, at, method, usage, status, code, error, duration_ms, fetches, logs)
    select connector_id, at, method, usage, status, code, error, duration_ms, fetches, logs
    from jsonb_to_recordset(${JSON.stringify(rows.map(columnsOf))}::jsonb) as row(
      connector_id uuid, at timestamptz, method text, usage text, status integer, code text, error text,
      duration_ms double precision, fetches jsonb, logs jsonb)`);

const columnsOf = (entry: ActivityEntry) => ({
  connector_id: entry.connectorId,
  at: entry.at.toISOString(),
  method: entry.method,
  usage: entry.usage,
  status: entry.status,
  code: entry.code,
  error: entry.error,
  duration_ms: entry.durationMs,
  fetches: entry.fetches,
  logs: entry.logs ?? [],
});

/**
 * Drops a connector's entries older than the age bound at `now` and all but its newest `ACTIVITY_MAX_ENTRIES`, in
 * one statement (it walks those entries, so it runs now and then rather than per entry).
 */
export const pruneConnectorActivity = async (db: Db, connectorId: string, now: Date): Promise<void> => {
  const oldestKept = db
    .select({ id: connectorActivity.id })
    .from(connectorActivity)
    .where(eq(connectorActivity.connectorId, connectorId))
    .orderBy(desc(connectorActivity.id))
    .offset(ACTIVITY_MAX_ENTRIES - 1)
    .limit(1);
  await db
    .delete(connectorActivity)
    .where(
      and(
        eq(connectorActivity.connectorId, connectorId),
        or(
          lt(connectorActivity.at, new Date(now.getTime() - ACTIVITY_MAX_AGE_MS)),
          lt(connectorActivity.id, sql`(${oldestKept})`),
        ),
      ),
    );
};

/**
 * Gives the space of pruned entries back to the table. The embedded database runs no autovacuum: without this, every
 * entry ever written kept its space (the table grew by about 370 bytes per run, a gigabyte an hour at a thousand runs
 * a second) and each prune walked every dead entry before it. On a table of a few thousand rows it is quick.
 */
export const reclaimConnectorActivity = async (db: Db): Promise<void> => {
  await db.execute(sql`vacuum ${connectorActivity}`);
};

/**
 * The newest entries first, by when they started (`at`): an entry is written when its invocation ends, so a long one
 * is written after shorter ones that started later.
 */
export const listConnectorActivity = (db: Db, connectorId: string, limit: number, since: Date) =>
  db
    .select()
    .from(connectorActivity)
    .where(and(eq(connectorActivity.connectorId, connectorId), sql`${connectorActivity.at} >= ${since}`))
    .orderBy(desc(connectorActivity.at), desc(connectorActivity.id))
    .limit(limit);
