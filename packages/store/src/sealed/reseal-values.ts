import { setImmediate, setTimeout } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import { SecretOpenError, sealedUnderPrefix } from '../secret-box.ts';
import type { Db, SecretBox } from '../types.ts';
import { countSealedValues, type SealedCounts } from './count-sealed-values.ts';
import { holdsValue, SEALED_COLUMNS, type SealedColumn } from './sealed-columns.ts';

export type ResealProgress = {
  /** Values looked at so far: re-sealed, left because a write changed them meanwhile, or not opened. */
  done: number;
  /** Values not sealed under the sealing key when the pass began (a concurrent write may move it a little). */
  total: number;
};

export type ResealOptions = {
  /** Values per batch; each batch is one statement, so one transaction. */
  batchSize: number;
  /**
   * Rest after each batch, in milliseconds; unset, `restRatio` times as long as the batch took, so the rotation holds
   * the database and the processor a bounded share of its time and the servers beside it keep their latency. 0 runs
   * at full speed.
   */
  pauseMs?: number;
  /** The rest after each batch as a multiple of its duration, when `pauseMs` is unset (1 by default: half the time). */
  restRatio?: number;
  onProgress?: (progress: ResealProgress) => void;
  /** Stops between two batches (what is committed stays; a later run goes on from there). */
  signal?: AbortSignal;
};

export type ResealSummary = {
  resealed: number;
  /** Values this process could not open (sealed under a key it does not hold): left as they are. */
  unopened: number;
  /** Before the rotation: how many values each key id sealed. */
  before: SealedCounts;
  /** After the rotation: how many values each key id seals. */
  counts: SealedCounts;
};

/** Passes over every column while the one before re-sealed something and values under other keys remain. */
const MAX_PASSES = 3;

const notUnder = (sealed: SealedColumn, keyId: string): SQL =>
  sql`${holdsValue(sealed)} and ${sql.identifier(sealed.column)} not like ${`${sealedUnderPrefix(keyId)}%`}`;

const keyList = (sealed: SealedColumn) =>
  sql.join(
    sealed.key.map((key) => sql.identifier(key.name)),
    sql`, `,
  );

/** Values of every sealed column not sealed under `keyId` by this version. */
const countNotUnder = async (db: Db, keyId: string): Promise<number> => {
  const counts = sql.join(
    SEALED_COLUMNS.map(
      (sealed) =>
        sql`(select count(*) from ${sql.identifier(sealed.table)} where ${notUnder(sealed, keyId)})`,
    ),
    sql` + `,
  );
  const [row] = await queryRows<{ pending: number | string }>(db, sql`select ${counts} as pending`);
  return Number(row?.pending ?? 0);
};

type Batch = { looked: number; resealed: number; unopened: number; last: string[] | undefined };

/**
 * One batch of one column, in primary-key order after `after`: reads up to `batchSize` values not sealed under the
 * sealing key, opens and seals each, and writes them back in one statement that compares each row's sealed value
 * with the one read (a value a request rewrote meanwhile is left as that write made it, never overwritten).
 */
const resealBatch = async (
  db: Db,
  secrets: SecretBox,
  sealed: SealedColumn,
  after: string[] | undefined,
  batchSize: number,
): Promise<Batch> => {
  const table = sql.identifier(sealed.table);
  const column = sql.identifier(sealed.column);
  const keys = keyList(sealed);
  const textKeys = sql.join(
    sealed.key.map((key, index) => sql`${sql.identifier(key.name)}::text as ${sql.identifier(`k${index}`)}`),
    sql`, `,
  );
  const cursor = after
    ? sql`and (${keys}) > (${sql.join(
        sealed.key.map((key, index) => sql`${after[index]}::${sql.raw(key.type)}`),
        sql`, `,
      )})`
    : sql``;
  const rows = await queryRows<Record<string, string>>(
    db,
    sql`select ${textKeys}, ${column} as sealed from ${table}
        where ${notUnder(sealed, secrets.sealingKeyId)} ${cursor}
        order by ${keys} limit ${batchSize}`,
  );
  const keyOf = (row: Record<string, string>) => sealed.key.map((_, index) => row[`k${index}`] as string);
  const changes: Record<string, string>[] = [];
  let unopened = 0;
  for (const row of rows) {
    let plaintext: string;
    try {
      plaintext = secrets.open(row.sealed as string);
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      unopened++;
      continue;
    }
    changes.push({ ...row, resealed: secrets.seal(plaintext) });
  }
  let resealed = 0;
  if (changes.length > 0) {
    const recordType = sql.join(
      [...sealed.key.map((_, index) => sql.identifier(`k${index}`)), sql`sealed`, sql`resealed`].map(
        (name) => sql`${name} text`,
      ),
      sql`, `,
    );
    const matches = sql.join(
      sealed.key.map(
        (key, index) =>
          sql`${table}.${sql.identifier(key.name)} = v.${sql.identifier(`k${index}`)}::${sql.raw(key.type)}`,
      ),
      sql` and `,
    );
    // The batch's key range bounds the rows the join reads: an index range, not the whole table, per batch.
    const bound = (row: Record<string, string>) =>
      sql.join(
        sealed.key.map((key, index) => sql`${row[`k${index}`]}::${sql.raw(key.type)}`),
        sql`, `,
      );
    const qualifiedKeys = sql.join(
      sealed.key.map((key) => sql`${table}.${sql.identifier(key.name)}`),
      sql`, `,
    );
    const updated = await queryRows(
      db,
      sql`update ${table} set ${column} = v.resealed
          from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as v(${recordType})
          where ${matches} and ${table}.${column} = v.sealed
            and (${qualifiedKeys}) >= (${bound(changes[0] as Record<string, string>)})
            and (${qualifiedKeys}) <= (${bound(changes.at(-1) as Record<string, string>)})
          returning 1`,
    );
    resealed = updated.length;
  }
  const lastRow = rows.at(-1);
  return { looked: rows.length, resealed, unopened, last: lastRow && keyOf(lastRow) };
};

/**
 * Re-seals every stored sealed value (sealed-columns.ts) under the sealing key of `secrets`, in batches of one
 * transaction each, while servers go on reading and writing them: values under the other configured keys keep
 * opening meanwhile, and each batch compares-and-sets, so it can be stopped at any point (a kill included) and run
 * again: what is done stays done, and what a batch did not commit is found again.
 */
export const resealValues = async (
  db: Db,
  secrets: SecretBox,
  options: ResealOptions,
): Promise<ResealSummary> => {
  const before = await countSealedValues(db, secrets);
  let resealed = 0;
  let unopened = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const total = await countNotUnder(db, secrets.sealingKeyId);
    if (total === 0) break;
    let done = 0;
    let passResealed = 0;
    unopened = 0;
    options.onProgress?.({ done, total });
    for (const sealed of SEALED_COLUMNS) {
      let after: string[] | undefined;
      for (;;) {
        // Between batches the process's other work runs (an embedded database answers within the same turn of the
        // event loop otherwise): requests of the server doing the rotation, and a stop asked for.
        await setImmediate();
        options.signal?.throwIfAborted();
        const began = performance.now();
        const batch = await resealBatch(db, secrets, sealed, after, options.batchSize);
        const pause = options.pauseMs ?? (performance.now() - began) * (options.restRatio ?? 1);
        if (pause > 0 && batch.looked > 0) await setTimeout(pause);
        done += batch.looked;
        passResealed += batch.resealed;
        unopened += batch.unopened;
        if (batch.looked > 0)
          options.onProgress?.({ done: Math.min(done, total), total: Math.max(done, total) });
        if (batch.looked < options.batchSize) break;
        after = batch.last;
      }
    }
    resealed += passResealed;
    // Another pass only for what a concurrent write left under an old key (a replica still sealing with it).
    if (passResealed === 0 || total - passResealed <= unopened) break;
  }
  return { resealed, unopened, before, counts: await countSealedValues(db, secrets) };
};
