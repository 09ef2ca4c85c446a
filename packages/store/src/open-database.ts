import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { ClientConfig } from 'pg';
import { CHANGES_CHANNEL } from './change-channel.ts';
import { createKeyMutex } from './key-mutex.ts';
import { copyPgliteTemplate } from './pglite-template.ts';
import { connectFailure, DEFAULT_POSTGRES_TIMEOUTS, type PostgresTimeouts } from './postgres-availability.ts';
import { ensurePrivateDir, restrictTree } from './private-files.ts';
import * as schema from './schema/index.ts';
import type { ChangeWatch, Database, Db } from './types.ts';

export type OpenDatabaseOptions = {
  /** `postgres://…` or `postgresql://…` selects PostgreSQL; anything else (or nothing) the embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite keeps its files in `${dataDir}/pglite`. */
  dataDir: string;
  /** Connections in the PostgreSQL pool (default 10). */
  poolSize?: number;
  /** PostgreSQL only: connect, pool-acquire and statement timeouts (docs/configuration.md). */
  timeouts?: Partial<PostgresTimeouts>;
  /** A new embedded database starts as a copy of the migrated template when there is a current one (default). */
  fromTemplate?: boolean;
};

const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//i.test(url);

export const openDatabase = async (options: OpenDatabaseOptions): Promise<Database> =>
  isPostgresUrl(options.databaseUrl)
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, {
        ...DEFAULT_POSTGRES_TIMEOUTS,
        ...options.timeouts,
      })
    : openPglite(options.dataDir, options.fromTemplate ?? true);

const openPostgres = async (url: string, max: number, timeouts: PostgresTimeouts): Promise<Database> => {
  // Loaded only here: an embedded start does not spend its time loading the PostgreSQL driver.
  const [{ default: pg }, { drizzle: drizzleNodePg }, { watchPostgresChannel }, { guardPool }] =
    await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('./postgres-change-watch.ts'),
      import('./postgres-availability.ts'),
    ]);
  // The server cancels a statement past statement_timeout; pg-pool's connectionTimeoutMillis bounds the wait for a
  // pooled connection, and the client's own bounds opening one.
  const clientConfig = { connectionString: url, statement_timeout: timeouts.statementMs };
  class Client extends pg.Client {
    constructor(config?: ClientConfig) {
      super({ ...config, connectionTimeoutMillis: timeouts.connectMs });
    }
  }
  const pool = new pg.Pool({ ...clientConfig, max, connectionTimeoutMillis: timeouts.acquireMs, Client });
  // An idle client that loses its connection emits 'error' on the pool; unhandled, that would end the process.
  // The next query simply gets a fresh connection, so there is nothing to do here.
  pool.on('error', () => {});
  // Fail at start, naming the cause, rather than on the first request (and within the connect timeout).
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw connectFailure(error, timeouts);
  }
  const availability = guardPool(pool, () => new Client(clientConfig), timeouts);
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async withAdvisoryLock(key, fn) {
      // Session-level advisory locks belong to a connection, so one client is held for the whole of `fn`.
      const client = await pool.connect();
      let broken = false;
      try {
        // Waiting for the lock is not a runaway statement: a replica may migrate for longer than statement_timeout.
        await client.query('set statement_timeout = 0');
        await client.query('select pg_advisory_lock(hashtext($1))', [key]);
        await client.query('reset statement_timeout');
        return await fn();
      } finally {
        try {
          await client.query('select pg_advisory_unlock(hashtext($1))', [key]);
        } catch {
          broken = true;
        }
        // A client whose unlock failed may still hold the lock: destroy it so the server drops the lock with it.
        client.release(broken ? true : undefined);
      }
    },
    available: availability.available,
    watchChanges: (onChange) => watchPostgresChannel(url, CHANGES_CHANNEL, () => onChange()),
    listen: (channel, onMessage) => watchPostgresChannel(url, channel, onMessage),
    close: () => {
      availability.stop();
      return pool.end();
    },
  };
};

/** In-process: the notifications cannot be lost, so the watch is always live. */
const listenPglite = async (
  client: PGlite,
  channel: string,
  onMessage: (payload?: string) => void,
): Promise<ChangeWatch> => {
  const unlisten = await client.listen(channel, (payload) => onMessage(payload));
  return { live: true, stop: unlisten };
};

const openPglite = async (dataDir: string, fromTemplate: boolean): Promise<Database> => {
  const dir = join(dataDir, 'pglite');
  // Users, e-mails and sealed secrets live in these files: owner-only, including a folder made before this rule.
  await ensurePrivateDir(dataDir);
  if (fromTemplate) copyPgliteTemplate(dir);
  await ensurePrivateDir(dir);
  const client = new PGlite(dir);
  await client.waitReady;
  // After start: PGlite has rewritten its relation cache files (0644) by then.
  await restrictTree(dir);
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  const lock = createKeyMutex();
  return {
    db,
    kind: 'pglite',
    withAdvisoryLock: lock,
    // In-process: it answers whenever this process does.
    available: () => true,
    watchChanges: (onChange) => listenPglite(client, CHANGES_CHANNEL, () => onChange()),
    listen: (channel, onMessage) => listenPglite(client, channel, onMessage),
    close: () => client.close(),
  };
};
