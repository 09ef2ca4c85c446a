import type pg from 'pg';
import { DatabaseUnavailableError } from './database-unavailable-error.ts';

/** docs/configuration.md, "Database timeouts". */
export type PostgresTimeouts = {
  /** A new connection (TCP, TLS, authentication) must be open within this (DATABASE_CONNECT_TIMEOUT_SECONDS). */
  connectMs: number;
  /** A query waits at most this long for a connection of the pool (DATABASE_ACQUIRE_TIMEOUT_SECONDS). */
  acquireMs: number;
  /** PostgreSQL cancels a statement that runs longer (DATABASE_STATEMENT_TIMEOUT_SECONDS, its statement_timeout). */
  statementMs: number;
};

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  connectMs: 5000,
  acquireMs: 5000,
  statementMs: 30_000,
};

/**
 * A frozen server (stopped processes, a partition) accepts connections and queries and never answers them: no
 * error ever arrives. A probe on a connection of its own asks `select 1` every second; an answer later than this
 * marks the database unavailable. Three seconds keeps a loaded machine from being taken for a frozen database,
 * and with the second between probes a freeze is known within four.
 */
const PROBE_EVERY_MS = 1000;
const PROBE_TIMEOUT_MS = 3000;

export type PostgresAvailability = {
  /** False from a probe that failed until one succeeds. */
  available(): boolean;
  stop(): void;
};

type PoolClientWithStream = pg.PoolClient & { connection?: { stream?: { destroy(): void } } };

const cut = (client: pg.Client | pg.PoolClient) =>
  (client as PoolClientWithStream).connection?.stream?.destroy();

const seconds = (ms: number) => `${ms / 1000} s`;

/** Refusals PostgreSQL sends while a connection opens that DATABASE_URL itself causes, in an operator's words. */
const SETTING_REFUSALS: Record<string, string> = {
  '3D000':
    'the database DATABASE_URL names does not exist on that server (create it, or correct DATABASE_URL)',
  '28P01': "PostgreSQL refused DATABASE_URL's user name or password",
  '28000': "PostgreSQL refused DATABASE_URL's user (no pg_hba.conf entry lets it in)",
};

/**
 * What a failed connection attempt means, in words an operator can act on. Of the errors the server itself sent
 * (they carry a SQLSTATE), those DATABASE_URL causes are named as such; the others pass unchanged.
 */
export const connectFailure = (error: unknown, timeouts: PostgresTimeouts): unknown => {
  if (!(error instanceof Error)) return error;
  if ('severity' in error) {
    const refusal = SETTING_REFUSALS[String((error as { code?: unknown }).code)];
    return refusal
      ? new DatabaseUnavailableError(`The database is not available: ${refusal}.`, { cause: error })
      : error;
  }
  const code = (error as { code?: unknown }).code;
  const reason = /timeout exceeded when trying to connect/i.test(error.message)
    ? `no connection of the pool was free within ${seconds(timeouts.acquireMs)} (DATABASE_ACQUIRE_TIMEOUT_SECONDS)`
    : /timeout|terminated/i.test(error.message)
      ? `PostgreSQL did not answer within ${seconds(timeouts.connectMs)} (DATABASE_CONNECT_TIMEOUT_SECONDS)`
      : code === 'ECONNREFUSED'
        ? 'PostgreSQL refused the connection (is it running at the address DATABASE_URL names?)'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the host DATABASE_URL names was not found'
          : `the connection failed (${typeof code === 'string' ? code : error.message})`;
  return new DatabaseUnavailableError(`The database is not available: ${reason}.`, { cause: error });
};

/**
 * Watches PostgreSQL and guards `pool` with what it sees (docs/configuration.md, "Database timeouts"). While the
 * database is unavailable a query fails at once with DatabaseUnavailableError (answered 503) instead of queueing
 * for a connection; when it turns unavailable, queries under way are cut (their connections destroyed: an answer is
 * not coming) and callers waiting for a connection are failed, so that nothing waits on a frozen database.
 */
export const guardPool = (
  pool: pg.Pool,
  newClient: () => pg.Client,
  timeouts: PostgresTimeouts,
): PostgresAvailability => {
  let up = true;
  let stopped = false;
  const busy = new Set<pg.PoolClient>();
  const waiting = new Set<(error: Error) => void>();
  pool.on('acquire', (client) => busy.add(client));
  pool.on('release', (_error, client) => busy.delete(client));
  pool.on('remove', (client) => busy.delete(client as pg.PoolClient));

  const unavailable = () =>
    new DatabaseUnavailableError(
      `The database is not available: it did not answer a probe within ${seconds(PROBE_TIMEOUT_MS)}.`,
    );
  const goDown = () => {
    if (!up) return;
    up = false;
    const error = unavailable();
    for (const fail of waiting) fail(error);
    waiting.clear();
    for (const client of busy) cut(client);
  };

  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const guarded = (): Promise<pg.PoolClient> => {
    if (!up) return Promise.reject(unavailable());
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      waiting.add(fail);
      connect().then(
        (client) => {
          waiting.delete(fail);
          if (settled) {
            // Failed meanwhile (the database went away): the connection is not to be trusted either.
            client.release(true);
            return;
          }
          settled = true;
          resolve(client);
        },
        (error: unknown) => {
          waiting.delete(fail);
          fail(connectFailure(error, timeouts));
        },
      );
    });
  };
  // pg-pool's own `query` calls `this.connect(callback)`: both forms go through the guard.
  pool.connect = ((callback?: (error: unknown, client?: pg.PoolClient, done?: () => void) => void) => {
    const promise = guarded();
    if (!callback) return promise;
    promise.then(
      (client) => callback(undefined, client, () => client.release()),
      (error: unknown) => callback(error, undefined, () => {}),
    );
    return undefined;
  }) as typeof pool.connect;

  let probe: { client: pg.Client; connected: Promise<unknown> } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const ask = async (): Promise<boolean> => {
    if (!probe) {
      const created = newClient();
      created.on('error', () => {});
      probe = { client: created, connected: created.connect() };
    }
    const { client, connected }: { client: pg.Client; connected: Promise<unknown> } = probe;
    let late: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        connected.then(() => client.query('select 1')),
        new Promise((_, reject) => {
          late = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
        }),
      ]);
      return true;
    } catch {
      // A new connection next round: this one may hold a query that will never be answered.
      probe = undefined;
      cut(client);
      client.end().catch(() => {});
      return false;
    } finally {
      clearTimeout(late);
    }
  };
  const round = async () => {
    const answered = await ask();
    if (stopped) return;
    if (answered) up = true;
    else goDown();
    timer = setTimeout(round, PROBE_EVERY_MS).unref();
  };
  timer = setTimeout(round, PROBE_EVERY_MS).unref();

  return {
    available: () => up,
    stop() {
      stopped = true;
      clearTimeout(timer);
      probe?.client.end().catch(() => {});
      probe = undefined;
    },
  };
};
