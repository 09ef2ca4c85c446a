import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/platform-server.js', import.meta.url));

export type BenchServer = { url: string; pid: number; stop(): Promise<void> };

/**
 * `platform-server start` as a user runs it (the built bin, configured by environment variables), in a process
 * of its own so that its CPU is its own and `--cpu-prof` can profile it (BENCH_CPU_PROF=folder). Its log lines go
 * to /dev/null, written as they would be to a terminal. BENCH_SERVER_BIN runs another build's bin instead (one whose
 * imports resolve from a node_modules above it), so that a bench can weigh a change against the build before it,
 * run after run, on the same machine.
 */
export const startBenchServer = async (
  env: Record<string, string>,
  options: {
    /** Another build's `bin/platform-server.js` (bench:proxy-ab); this package's by default. */
    bin?: string;
    /** Runs it on this core alone (`taskset`). */
    cpu?: number;
  } = {},
): Promise<BenchServer> => {
  const profile = process.env.BENCH_CPU_PROF;
  const node = [
    process.execPath,
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
    options.bin ?? process.env.BENCH_SERVER_BIN ?? bin,
    'start',
  ];
  const [command, ...args] =
    options.cpu === undefined ? node : ['taskset', '-c', String(options.cpu), ...node];
  const child = spawn(command as string, args, {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const errors: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  const exited = once(child, 'exit');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`platform-server exited: ${errors.join('')}`);
    try {
      const announced = JSON.parse(await readFile(join(env.DATA_DIR ?? '', 'server.json'), 'utf8')) as {
        pid: number;
        url: string;
      };
      if (announced.pid === child.pid && (await fetch(`${announced.url}/api/ping`)).ok) {
        return {
          url: announced.url,
          pid: child.pid,
          async stop() {
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        };
      }
    } catch {
      // not announced or not answering yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`platform-server did not start within 60 s: ${errors.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
