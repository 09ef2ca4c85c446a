import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, migrationsFolder } from './migrate.ts';
import { openDatabase } from './open-database.ts';
import { restrictTree } from './private-files.ts';
import type { Database } from './types.ts';

/**
 * Databases for tests, on every backend this machine offers (import from `@platform/store/testing`):
 *
 *   const backends = await testBackends();
 *   describe.each(backends)('on $name', (backend) => {
 *     let database: TestDatabase;
 *     beforeEach(async () => { database = await backend.fresh(); });
 *     afterEach(() => database.close());
 *   });
 *
 * PGlite always (a temporary folder per database). PostgreSQL when `TEST_DATABASE_URL` is set, else in a
 * testcontainers container when a Docker engine answers, else not at all. Every `fresh()` database is its own
 * (a new PostgreSQL database cloned from a migrated template, or a new PGlite folder) and `close()` drops it.
 */
export type TestDatabase = Database & {
  /** A temporary folder of this database's own (PGlite keeps its files here; tests may put keys here too). */
  readonly dataDir: string;
  /** The PostgreSQL URL of this database; undefined on PGlite. */
  readonly databaseUrl: string | undefined;
  /** Closes this handle but keeps the database, so another process can open it (PGlite allows one at a time). */
  detach(): Promise<void>;
};

/** Wraps a handle so that `detach()` closes it once and `close()` closes it (if still open) and cleans up. */
const testDatabase = (
  database: Database,
  dataDir: string,
  databaseUrl: string | undefined,
  cleanup: () => Promise<void>,
): TestDatabase => {
  let open = true;
  const detach = async () => {
    if (open) {
      open = false;
      await database.close();
    }
  };
  return {
    ...database,
    dataDir,
    databaseUrl,
    detach,
    async close() {
      await detach();
      await cleanup();
    },
  };
};

export type TestBackend = {
  readonly name: 'pglite' | 'postgres';
  /** Where the backend comes from, for the line each test run prints. */
  readonly source: string;
  /** A new database of its own, migrated unless `{ migrated: false }`. `close()` removes it. */
  fresh(options?: { migrated?: boolean }): Promise<TestDatabase>;
};

const announced = new Set<string>();
const announce = (backend: TestBackend) => {
  const key = `${backend.name}:${backend.source}`;
  if (announced.has(key)) return;
  announced.add(key);
  console.info(`[@platform/store] test backend: ${backend.name} (${backend.source})`);
};

/**
 * A migrated PGlite folder, built once per migration set and kept in the temporary directory: creating a
 * PGlite cluster (initdb in WebAssembly) takes seconds, copying a closed one takes milliseconds.
 */
let pgliteTemplate: Promise<string> | undefined;
const buildPgliteTemplate = async (): Promise<string> => {
  const target = join(tmpdir(), `platform-store-pglite-${await migrationsHash()}`);
  if (existsSync(join(target, 'pglite', 'PG_VERSION'))) {
    // One an earlier version left readable to others is closed before its next copy.
    await restrictTree(join(target, 'pglite'));
    return target;
  }
  const staging = await mkdtemp(join(tmpdir(), 'platform-store-pglite-staging-'));
  const database = await openDatabase({ dataDir: staging });
  await migrate(database);
  await database.close();
  // Like every embedded database: what the migrations added is closed to other users before it is copied.
  await restrictTree(join(staging, 'pglite'));
  try {
    // Parallel test processes may race to build it; the first rename wins and the others use its result.
    await rename(staging, target);
  } catch {
    await rm(staging, { recursive: true, force: true });
  }
  return target;
};

/** The migrated PGlite folder this process's fresh embedded databases are copied from (built on first use). */
export const pgliteTestTemplate = (): Promise<string> => {
  pgliteTemplate ??= buildPgliteTemplate();
  return pgliteTemplate;
};

const pgliteBackend = (): TestBackend => {
  const backend: TestBackend = {
    name: 'pglite',
    source: 'embedded, temporary folder',
    async fresh(options = {}) {
      announce(backend);
      const dataDir = await mkdtemp(join(tmpdir(), 'store-test-'));
      if (options.migrated !== false) {
        // Synchronous on purpose: fs/promises' cp took about a second of CPU for the template's thousand files, a
        // second per fresh database, against a tenth for cpSync's native copy.
        cpSync(join(await pgliteTestTemplate(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
      }
      // Unmigrated means empty: not the migrated template a new embedded database otherwise starts from.
      const database = await openDatabase({ dataDir, fromTemplate: options.migrated !== false });
      return testDatabase(database, dataDir, undefined, () => rm(dataDir, { recursive: true, force: true }));
    },
  };
  return backend;
};

const withUrlDatabase = (url: string, name: string): string => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

const adminQuery = async (url: string, text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
};

/** Hash of the migration files: the template database is rebuilt whenever they change. */
const migrationsHash = async (): Promise<string> => {
  const hash = createHash('sha256');
  for (const file of (await readdir(migrationsFolder)).sort()) {
    if (file.endsWith('.sql')) hash.update(await readFile(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 12);
};

const postgresBackend = (serverUrl: () => Promise<string>, source: string): TestBackend => {
  let template: Promise<string> | undefined;

  // One migrated template per migration set, built once under an advisory lock (test files run in parallel
  // processes); every fresh database is a cheap server-side copy of it.
  const ensureTemplate = async (): Promise<string> => {
    const url = await serverUrl();
    const name = `t_template_${await migrationsHash()}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`select pg_advisory_lock(hashtext('platform:test-template'))`);
      const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) {
        await client.query(`create database ${name}`);
        const database = await openDatabase({ databaseUrl: withUrlDatabase(url, name), dataDir: tmpdir() });
        try {
          await migrate(database);
        } catch (error) {
          await database.close();
          await client.query(`drop database if exists ${name} with (force)`);
          throw error;
        }
        await database.close();
      }
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('platform:test-template'))`).catch(() => {});
      await client.end();
    }
    return name;
  };

  const backend: TestBackend = {
    name: 'postgres',
    source,
    async fresh(options = {}) {
      announce(backend);
      const url = await serverUrl();
      const name = `t_${randomBytes(6).toString('hex')}`;
      if (options.migrated === false) {
        await adminQuery(url, `create database ${name}`);
      } else {
        template ??= ensureTemplate();
        const from = await template;
        // Copying a template fails while another session is connected to it; those sessions are brief.
        for (let attempt = 0; ; attempt++) {
          try {
            await adminQuery(url, `create database ${name} template ${from}`);
            break;
          } catch (error) {
            if (attempt >= 20) throw error;
            await new Promise((resolve) => setTimeout(resolve, 50 + attempt * 25));
          }
        }
      }
      const databaseUrl = withUrlDatabase(url, name);
      const dataDir = await mkdtemp(join(tmpdir(), 'store-test-'));
      const database = await openDatabase({ databaseUrl, dataDir });
      return testDatabase(database, dataDir, databaseUrl, async () => {
        await adminQuery(url, `drop database if exists ${name} with (force)`);
        await rm(dataDir, { recursive: true, force: true });
      });
    },
  };
  return backend;
};

/** A PostgreSQL container, started on first use and shared by this process; the Ryuk reaper removes it. */
const containerBackend = async (): Promise<TestBackend | undefined> => {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
  } catch {
    return undefined;
  }
  let started: Promise<string> | undefined;
  const start = async () => {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:17-alpine').start();
    return container.getConnectionUri();
  };
  return postgresBackend(() => {
    started ??= start();
    return started;
  }, 'testcontainers');
};

let backends: Promise<TestBackend[]> | undefined;

export const testBackends = (): Promise<TestBackend[]> => {
  backends ??= (async () => {
    const list = [pgliteBackend()];
    const url = process.env.TEST_DATABASE_URL;
    if (url) {
      list.push(postgresBackend(async () => url, 'TEST_DATABASE_URL'));
    } else {
      const container = await containerBackend();
      if (container) list.push(container);
      else
        console.info('[@platform/store] PostgreSQL tests skipped: no TEST_DATABASE_URL and no Docker engine');
    }
    return list;
  })();
  return backends;
};
