import { type ErrorCode, errorStatus, ServiceError } from '@platform/core';
import { type Database, queryRows } from '@platform/store';
import { sql } from 'drizzle-orm';

/** The channel on which the outcome of a token fetch is announced; the payload is the token cache key. */
export const TOKEN_FETCH_CHANNEL = 'connector_token_fetches';

/** What a token cache key's fetch row says now, times as milliseconds from now on the database's clock. */
export type FetchState = {
  /** Another replica (or this one) is fetching for this long yet. */
  leasedForMs: number;
  /** A remembered failure, and how long it stays remembered. */
  failure: { error: ServiceError; forMs: number } | undefined;
  /** A 401-driven renewal may run again only after this long. */
  renewInMs: number;
};

export type ClaimOptions = { leaseMs: number; renewal: boolean; renewBackoffMs: number };

/**
 * Rows of `connector_token_fetches` (migration 0005): one replica fetches a key's token while it holds the lease,
 * and nobody holds a database connection while the token endpoint answers, so a hung endpoint costs one row, not a
 * pool connection. Times come from the database's clock, the one every replica shares.
 */
export type FetchLeases = {
  read(key: string): Promise<FetchState>;
  /** Takes the lease unless it is held, a failure is remembered, or (for a renewal) renewals are backed off. */
  claim(key: string, connectorId: string, options: ClaimOptions): Promise<boolean>;
  /** Ends the lease after a token was stored, and tells every waiter. */
  succeed(key: string): Promise<void>;
  /** Ends the lease remembering `error` for `forMs`, and tells every waiter at once. */
  fail(key: string, error: ServiceError, forMs: number): Promise<void>;
};

/** Only service errors are remembered; their code and message were written to be shown to callers. */
const toRemembered = (code: string | null, message: string | null): ServiceError =>
  new ServiceError(
    code !== null && code in errorStatus ? (code as ErrorCode) : 'UPSTREAM_FAILED',
    message ?? '',
  );

type StateRow = {
  leased_ms: number | string | null;
  failed_ms: number | string | null;
  renew_ms: number | string | null;
  failure_code: string | null;
  failure_message: string | null;
};

const remaining = (value: number | string | null): number => Math.max(0, Number(value ?? 0));

const notify = (database: Database, key: string) =>
  database.db.execute(sql`select pg_notify(${TOKEN_FETCH_CHANNEL}, ${key})`);

export const createFetchLeases = (database: Database): FetchLeases => ({
  async read(key) {
    const rows = await queryRows<StateRow>(
      database.db,
      sql`select
            extract(epoch from (leased_until - now())) * 1000 as leased_ms,
            extract(epoch from (failed_until - now())) * 1000 as failed_ms,
            extract(epoch from (renew_after - now())) * 1000 as renew_ms,
            failure_code, failure_message
          from connector_token_fetches where key = ${key}`,
    );
    const row = rows[0];
    if (!row) return { leasedForMs: 0, failure: undefined, renewInMs: 0 };
    const failedMs = remaining(row.failed_ms);
    return {
      leasedForMs: remaining(row.leased_ms),
      failure:
        failedMs > 0
          ? { error: toRemembered(row.failure_code, row.failure_message), forMs: failedMs }
          : undefined,
      renewInMs: remaining(row.renew_ms),
    };
  },

  async claim(key, connectorId, { leaseMs, renewal, renewBackoffMs }) {
    const lease = sql`now() + ${`${leaseMs} milliseconds`}::interval`;
    const renewAfter = renewal ? sql`now() + ${`${renewBackoffMs} milliseconds`}::interval` : sql`null`;
    const rows = await queryRows<{ key: string }>(
      database.db,
      sql`insert into connector_token_fetches as f (key, connector_id, leased_until, renew_after)
          values (${key}, ${connectorId}, ${lease}, ${renewAfter})
          on conflict (key) do update set
            leased_until = excluded.leased_until,
            failed_until = null, failure_code = null, failure_message = null,
            renew_after = coalesce(excluded.renew_after, f.renew_after)
          where (f.leased_until is null or f.leased_until <= now())
            and (f.failed_until is null or f.failed_until <= now())
            and (${!renewal}::boolean or f.renew_after is null or f.renew_after <= now())
          returning f.key`,
    );
    return rows.length > 0;
  },

  async succeed(key) {
    // The row is only worth keeping while it still spaces renewals; otherwise keys would pile up per user.
    await database.db.execute(
      sql`delete from connector_token_fetches where key = ${key} and (renew_after is null or renew_after <= now())`,
    );
    await database.db.execute(sql`update connector_token_fetches set leased_until = null where key = ${key}`);
    await notify(database, key);
  },

  async fail(key, error, forMs) {
    await database.db.execute(
      sql`update connector_token_fetches set leased_until = null,
            failed_until = now() + ${`${Math.round(forMs)} milliseconds`}::interval,
            failure_code = ${error.code}, failure_message = ${error.message}
          where key = ${key}`,
    );
    await notify(database, key);
  },
});
