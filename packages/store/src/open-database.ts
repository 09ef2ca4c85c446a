import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { CHANGES_CHANNEL } from './change-channel.ts';
import { createKeyMutex } from './key-mutex.ts';
import { copyPgliteTemplate } from './pglite-template.ts';
import { ensurePrivateDir, restrictTree } from './private-files.ts';
import { checkDatabase } from './repos/admin/health.ts';
import * as schema from './schema/index.ts';
import type { Database, Db } from './types.ts';

export type OpenDatabaseOptions = {
  /** `postgres://…` or `postgresql://…` selects PostgreSQL; anything else (or nothing) the embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite keeps its files in `${dataDir}/pglite`. */
  dataDir: string;
  /** Connections in the PostgreSQL pool (default 10). */
  poolSize?: number;
  /** A new embedded database starts as a copy of the migrated template when there is a current one (default). */
  fromTemplate?: boolean;
};

const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//i.test(url);

export const openDatabase = async (options: OpenDatabaseOptions): Promise<Database> =>
  isPostgresUrl(options.databaseUrl)
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openPglite(options.dataDir, options.fromTemplate ?? true);

const openPostgres = async (url: string, max: number): Promise<Database> => {
  // Loaded only here: an embedded start does not spend its time loading the PostgreSQL driver.
  const [{ default: pg }, { drizzle: drizzleNodePg }, { watchPostgresChanges }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('./postgres-change-watch.ts'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that loses its connection emits 'error' on the pool; unhandled, that would end the process.
  // The next query simply gets a fresh connection, so there is nothing to do here.
  pool.on('error', () => {});
  // Fail at start, with the driver's message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    checkAlive: () => checkDatabase(db),
    async withAdvisoryLock(key, fn) {
      // Session-level advisory locks belong to a connection, so one client is held for the whole of `fn`.
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('select pg_advisory_lock(hashtext($1))', [key]);
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
    watchChanges: (onChange) => watchPostgresChanges(url, onChange),
    close: () => pool.end(),
  };
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
    checkAlive: async () => {
      if (client.closed) throw new Error('the embedded database is closed');
    },
    withAdvisoryLock: lock,
    async watchChanges(onChange) {
      // In-process: the notifications cannot be lost, so the watch is always live.
      const unlisten = await client.listen(CHANGES_CHANNEL, () => onChange());
      return { live: true, stop: unlisten };
    },
    close: () => client.close(),
  };
};
