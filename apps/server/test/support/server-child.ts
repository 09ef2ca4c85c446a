import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/platform-server.js', import.meta.url));

/** A port that was free a moment ago (the child binds it itself). */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
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
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [bin, 'start'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(port),
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
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`platform-server exited (${child.exitCode}): ${output.join('')}`);
    try {
      if ((await fetch(`${url}/api/ping`)).status === 200) break;
    } catch {
      // not listening yet
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
