/**
 * The embedded database holds users, e-mails and sealed secrets: a started server leaves DATA_DIR and every folder
 * in it 0700 and every file 0600 (PGlite writes its own files 0666), for a new folder and for one an older version
 * left open; another local user can neither list the folder nor read a file of it.
 */
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { startServerChild } from '../support/server-child.ts';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/** Every entry below `dir` whose mode is not owner-only: `path mode`. */
const openEntries = async (dir: string): Promise<string[]> => {
  const open: string[] = [];
  for (const path of [dir, ...(await readdir(dir, { recursive: true })).map((p) => join(dir, p))]) {
    const info = await stat(path);
    const mode = info.mode & 0o777;
    if (mode !== (info.isDirectory() ? 0o700 : 0o600)) open.push(`${path} ${mode.toString(8)}`);
  }
  return open;
};

/** Runs `command` as the unprivileged user `nobody`; resolves with its exit code. */
const asNobody = (...command: string[]) =>
  run('runuser', ['-u', 'nobody', '--', ...command]).then(
    () => 0,
    (error: { code: number }) => error.code,
  );

describe('file modes of the embedded database', () => {
  let issuer: TestIssuer;
  let parent: string;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    parent = await mkdtemp(join(tmpdir(), 'modes-'));
    // Reachable by everyone, as a home or /srv folder is: only DATA_DIR's own modes may protect it.
    await chmod(parent, 0o755);
  });
  afterAll(async () => {
    await issuer?.close();
    await rm(parent, { recursive: true, force: true });
  });

  /** `devIssuer`: the built-in development issuer, whose signing key lives in DATA_DIR too. */
  const startAndCheck = async (dataDir: string, devIssuer = false) => {
    const server = await startServerChild({
      dataDir,
      databaseUrl: undefined,
      issuerUrl: devIssuer ? '' : issuer.url,
    });
    try {
      // Written while the server runs: the database files, secrets.key, server.json, owner.lock.
      expect(await openEntries(dataDir)).toEqual([]);
      expect((await readdir(join(dataDir, 'pglite'))).length).toBeGreaterThan(5);
      if (isRoot) {
        expect(await asNobody('ls', dataDir)).not.toBe(0);
        expect(await asNobody('cat', join(dataDir, 'pglite', 'PG_VERSION'))).not.toBe(0);
        expect(await asNobody('cat', join(dataDir, 'secrets.key'))).not.toBe(0);
        // The check itself works: nobody does read a world-readable file beside it.
        expect(await asNobody('ls', parent)).toBe(0);
      }
    } finally {
      await server.stop();
    }
  };

  it('creates a new DATA_DIR 0700 with every file 0600', async () => {
    await startAndCheck(join(parent, 'new', 'data'));
  }, 120_000);

  it('closes a DATA_DIR an older version left 0755 with PGlite files 0666', async () => {
    const dataDir = join(parent, 'old');
    await startAndCheck(dataDir);
    // As the earlier versions left it.
    await chmod(dataDir, 0o755);
    for (const path of await readdir(dataDir, { recursive: true })) {
      const full = join(dataDir, path);
      await chmod(full, (await stat(full)).isDirectory() ? 0o755 : 0o666);
    }
    if (isRoot) expect(await asNobody('cat', join(dataDir, 'pglite', 'PG_VERSION'))).toBe(0);
    await startAndCheck(dataDir);
  }, 120_000);

  it("closes the development issuer's signing key an older version left readable", async () => {
    const dataDir = join(parent, 'dev-issuer');
    await startAndCheck(dataDir, true);
    const key = join(dataDir, 'dev-signing-key.json');
    await chmod(key, 0o666);
    await startAndCheck(dataDir, true);
    if (isRoot) expect(await asNobody('cat', key)).not.toBe(0);
  }, 120_000);

  it('makes every copy of the migrated template owner-only, in a folder made by hand beforehand', async () => {
    const dataDir = join(parent, 'made-by-hand');
    await mkdir(dataDir, { mode: 0o777 });
    await chmod(dataDir, 0o777);
    await cp(join(parent, 'old', 'secrets.key'), join(dataDir, 'secrets.key'));
    await chmod(join(dataDir, 'secrets.key'), 0o644);
    await startAndCheck(dataDir);
  }, 120_000);
});
