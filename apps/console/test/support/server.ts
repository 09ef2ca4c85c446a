import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../../server/bin/platform-server.js', import.meta.url));

export type StartedServer = {
  url: string;
  /** The demo owner's bearer token the banner prints. */
  token: string;
  /** A GET of the REST API with the demo owner's token. */
  get<T>(path: string): Promise<T>;
  stop(): Promise<void>;
};

/**
 * `platform-server start` as `npm start` runs it (embedded database, demo data, development issuer) on a free port
 * and a fresh data folder, with `env` laid over its environment; resolves once the banner is printed.
 */
export const startServer = async (env: Record<string, string> = {}): Promise<StartedServer> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'console-test-'));
  const child: ChildProcess = spawn(process.execPath, [bin, 'start'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let started = false;
  // Until the banner, the output is read for the URL and token; after it, what the server logs (warnings and
  // errors: a 500's cause) goes to the test's output, beside the browser's own report of the answer.
  const take = (chunk: Buffer) => {
    if (started) process.stderr.write(`[server] ${chunk.toString()}`);
    else output += chunk.toString();
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = once(child, 'exit');
  const deadline = Date.now() + 120_000;
  let url: string | undefined;
  let token: string | undefined;
  while (!url || !token) {
    if (child.exitCode !== null) throw new Error(`platform-server exited: ${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`platform-server did not start in time: ${output}`);
    }
    url = /Console\s+(http:\/\/\S+)\/console/.exec(output)?.[1];
    token = /export TOKEN=(\S+)/.exec(output)?.[1];
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  started = true;
  const base = url;
  const bearer = token;
  return {
    url: base,
    token: bearer,
    async get<T>(path: string) {
      const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
