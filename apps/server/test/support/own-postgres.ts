import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

/**
 * A PostgreSQL server of the test's own, from Debian's binaries, on a free loopback port: the test may freeze it
 * (SIGSTOP of every one of its processes, as a hung machine or a paused VM looks to its clients), thaw and stop
 * it without disturbing the machine's shared PostgreSQL. As root it runs as the `postgres` user (PostgreSQL
 * refuses root), through spawn's uid rather than runuser: runuser stops itself when its child is stopped. Undefined where Debian's PostgreSQL is not installed: tests skip with a note.
 */
export type OwnPostgres = {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication). */
  readonly url: string;
  readonly port: number;
  /** Every process of the server stops (SIGSTOP): connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
};

const binDir = (): string | undefined => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
};

export const ownPostgresAvailable = (): boolean => binDir() !== undefined;

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

export const startOwnPostgres = async (): Promise<OwnPostgres> => {
  const bin = binDir();
  if (!bin) throw new Error('Debian PostgreSQL binaries are not installed');
  const dir = await mkdtemp(join(tmpdir(), 'own-postgres-'));
  let user: { uid: number; gid: number } | Record<string, never> = {};
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    user = { uid: id('-u'), gid: id('-g') };
    await chown(dir, user.uid, user.gid);
  }
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], {
    stdio: 'ignore',
    cwd: dir,
    ...user,
  });

  let child: ChildProcess | undefined;
  let port = 0;
  let log = '';
  for (let attempt = 0; attempt < 3 && !child; attempt++) {
    port = await freePort();
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
    ];
    const started = spawn(join(bin, 'postgres'), args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
      ...user,
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && started.exitCode === null && !/ready to accept connections/.test(log)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (/ready to accept connections/.test(log)) child = started;
    else started.kill('SIGKILL');
  }
  if (!child) throw new Error(`own PostgreSQL did not start: ${log}`);
  const exited = once(child, 'exit');
  const postmaster = child.pid as number;
  const processes = () => [postmaster, ...childrenOf(postmaster)];
  const signal = (name: NodeJS.Signals) => {
    for (const pid of processes()) {
      try {
        process.kill(pid, name);
      } catch {
        // gone meanwhile
      }
    }
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    stop: async () => {
      signal('SIGCONT');
      // Fast shutdown: clients are disconnected, the server exits.
      process.kill(postmaster, 'SIGINT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
};
