/**
 * What the server's load benches share: the real platform started in this process on a backend (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL), trusting a real issuer on loopback (tokens are verified as in production);
 * autocannon in a worker thread, off the server's event loop; and the results file bench/report.ts reads.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TestBackend } from '@platform/store/testing';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { startPlatform } from '../src/platform.ts';
import { startTestIssuer } from '../test/support/issuer.ts';

export type Figure = {
  label: string;
  value: number;
  unit: string;
  anchor?: { label: string; value: number };
  ratio?: number;
  target?: string;
  met?: boolean;
};

export const startBenchPlatform = async (backend: TestBackend, env: Record<string, string> = {}) => {
  const database = await backend.fresh();
  const issuer = await startTestIssuer();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    AUTH_ISSUER: issuer.url,
    DEMO_DATA: 'false',
    RATE_LIMIT_PER_SECOND: '1000000000',
    PROXY_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
    ...(database.databaseUrl
      ? { DATABASE_URL: database.databaseUrl, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }
      : {}),
    ...env,
  });
  const log = pino({ level: config.logLevel }, pino.destination({ dest: '/dev/null', sync: true }));
  const platform = await startPlatform(config, log, database);
  return {
    platform,
    database,
    url: platform.url,
    token: (sub: string, roles: string[]) => issuer.sign({ sub, roles }),
    close: async () => {
      await platform.close();
      await database.close();
      await issuer.close();
    },
  };
};

export type Latency = { p99: number; requests: number; errors: number; non2xx: number };

/**
 * autocannon in a worker thread of its own, off the server's event loop, until `stop()` (autocannon's own worker
 * mode cannot be stopped early).
 */
export const pingLoad = (url: string, connections: number) => {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const autocannon = require(workerData.autocannon);
     const options = { url: workerData.url, connections: workerData.connections, duration: 3600 };
     // Off the main thread autocannon hands back raw histograms: aggregated here as its main thread would.
     const instance = autocannon(options, (error, raw) => {
       if (error) return parentPort.postMessage({ error: String(error) });
       const r = autocannon.aggregateResult([raw], options);
       parentPort.postMessage({ p99: r.latency.p99, requests: r.requests.total, errors: r.errors, non2xx: r.non2xx });
     });
     parentPort.once('message', () => instance.stop());`,
    {
      eval: true,
      workerData: { url, connections, autocannon: createRequire(import.meta.url).resolve('autocannon') },
    },
  );
  const result = new Promise<Latency>((resolve, reject) => {
    worker.once('message', (m: Latency) => {
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
  return {
    stop: () => {
      worker.postMessage('stop');
      return result;
    },
  };
};

export const pingFor = async (url: string, seconds: number, connections: number): Promise<Latency> => {
  const load = pingLoad(url, connections);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return load.stop();
};

/** Writes bench/results/<name>.json, labelled with the machine's load when it was busy. */
export const writeResults = async (name: string, figures: Figure[]): Promise<void> => {
  const out = fileURLToPath(new URL('../../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(`${out}${name}.json`, `${JSON.stringify({ name, figures }, null, 2)}\n`);
  console.info(`written: bench/results/${name}.json`);
};

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** A numeric command-line option `--name=N`, or undefined. */
export const flag = (name: string): number | undefined => {
  const value = process.argv.find((a) => a.startsWith(`--${name}=`));
  return value ? Number(value.split('=')[1]) : undefined;
};
