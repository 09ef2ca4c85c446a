import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/platform-server.js', import.meta.url));

/** The address the child with `pid` wrote to DATA_DIR/server.json once it listens; throws until then. */
const announcedUrl = async (dataDir: string, pid: number | undefined): Promise<string> => {
  const file = JSON.parse(await readFile(join(dataDir, 'server.json'), 'utf8')) as {
    pid: number;
    url: string;
  };
  if (file.pid !== pid) throw new Error('not announced yet');
  return file.url;
};

export type ServerChild = {
  url: string;
  child: ChildProcess;
  /** Everything the child wrote on stdout and stderr. */
  output: string[];
  /** Resident set size of the child in bytes (Linux /proc). */
  rss(): Promise<number>;
  /** SIGKILL: no shutdown, no flush, whatever was in flight is cut. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
};

/**
 * `platform-server start` in a process of its own, as production runs it: the real bin, configured by
 * environment variables only. Resolves once `/api/ping` answers 200.
 */
export const startServerChild = async (options: {
  dataDir: string;
  databaseUrl: string | undefined;
  issuerUrl: string;
  port?: number;
  env?: Record<string, string>;
}): Promise<ServerChild> => {
  // Without a port asked for, the child binds port 0 and tells its address in DATA_DIR/server.json: a port found
  // free beforehand could be taken by another test's server in between, and the readiness check would then talk to
  // that server.
  const child = spawn(process.execPath, [bin, 'start'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(options.port ?? 0),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      AUTH_ISSUER: options.issuerUrl,
      DEMO_DATA: 'false',
      RATE_LIMIT_PER_SECOND: '0',
      PROXY_ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'warn',
      ...(options.databaseUrl
        ? { DATABASE_URL: options.databaseUrl, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }
        : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = once(child, 'exit');
  const deadline = Date.now() + 60_000;
  let url = options.port === undefined ? '' : `http://127.0.0.1:${options.port}`;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`platform-server exited (${child.exitCode}): ${output.join('')}`);
    try {
      if (url === '') url = await announcedUrl(options.dataDir, child.pid);
      // A server that accepts but never answers must not hang the caller past the deadline.
      if ((await fetch(`${url}/api/ping`, { signal: AbortSignal.timeout(5000) })).status === 200) break;
    } catch {
      // not listening yet, or not announced yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`platform-server did not become ready: ${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output,
    rss: async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kib * 1024;
    },
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
};
