import type { Db } from '../../types.ts';
import {
  ACTIVITY_MAX_ENTRIES,
  type ActivityEntry,
  insertConnectorActivity,
  pruneConnectorActivity,
  reclaimConnectorActivity,
} from './connector-activity.ts';

/**
 * A connector's bounds are enforced after every this many of its entries written here (and for its first): the
 * table holds at most this many more than the bound per replica, and reads never show more than the bound. A prune
 * walks the connector's newest thousand entries whatever it deletes, so it runs per half a thousand: at a thousand
 * runs a second (a Studio page's downloads), pruning per hundred cost a tenth of the activity's database time.
 */
const PRUNE_EVERY = Math.ceil(ACTIVITY_MAX_ENTRIES / 2);
const MAX_COUNTED = 10_000;

/**
 * The connector activity of one process, written off the request path: an invocation hands its entry over and
 * answers at once; entries are written together, at most `delayMs` later (one statement for a whole batch, not
 * two per invocation, which on the embedded database would also hold the event loop for each). A read of the activity
 * flushes first, so this process's own runs are always in it; other replicas' appear once they flushed.
 */
export type ConnectorActivityLog = {
  record(entry: ActivityEntry): void;
  /** Resolves once every entry recorded before the call is written (or was refused by the database). */
  flush(): Promise<void>;
};

export type ConnectorActivityLogOptions = {
  /** Called with a failed batch's error; its entries are dropped (activity is a bounded log, not a record of truth). */
  onError: (error: unknown) => void;
  /** The longest an entry waits before its batch is written. */
  delayMs?: number;
  /** Entries waiting beyond this (a database that does not keep up) drop the oldest first. */
  maxPending?: number;
  /**
   * Vacuums the table after each prune (`reclaimConnectorActivity`): on the embedded database, which has no
   * autovacuum. PostgreSQL's own autovacuum does it there.
   */
  reclaimSpace?: boolean;
};

export const createConnectorActivityLog = (
  db: Db,
  options: ConnectorActivityLogOptions,
): ConnectorActivityLog => {
  const delayMs = options.delayMs ?? 50;
  const maxPending = options.maxPending ?? 10_000;
  let pending: ActivityEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  /** The writes in flight, one after another: a batch never overtakes an older one. */
  let written: Promise<void> = Promise.resolve();
  /** Entries written per connector since its bounds were last enforced. */
  const sincePrune = new Map<string, number>();

  const write = async (batch: ActivityEntry[]): Promise<void> => {
    await insertConnectorActivity(db, batch);
    // Deleted connectors leave their counts behind; forgetting them all only means an early prune for each.
    if (sincePrune.size > MAX_COUNTED) sincePrune.clear();
    const newest = new Map<string, Date>();
    for (const entry of batch) {
      newest.set(entry.connectorId, entry.at);
      sincePrune.set(entry.connectorId, (sincePrune.get(entry.connectorId) ?? PRUNE_EVERY) + 1);
    }
    let pruned = false;
    for (const [connectorId, at] of newest) {
      if ((sincePrune.get(connectorId) ?? 0) <= PRUNE_EVERY) continue;
      sincePrune.set(connectorId, 0);
      await pruneConnectorActivity(db, connectorId, at);
      pruned = true;
    }
    if (pruned && options.reclaimSpace) await reclaimConnectorActivity(db);
  };

  const flush = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return written;
    const batch = pending;
    pending = [];
    written = written.then(() => write(batch).catch(options.onError));
    return written;
  };

  return {
    record(entry) {
      if (pending.length >= maxPending) pending.splice(0, pending.length - maxPending + 1);
      pending.push(entry);
      // Unreferenced: a pending batch never keeps a process alive; the server flushes on its way down.
      timer ??= setTimeout(() => void flush(), delayMs).unref();
    },
    flush,
  };
};
