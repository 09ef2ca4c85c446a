import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { removeServerFile, writeServerFile } from './server-file.ts';

/** What a worker tells the primary once it answers requests. */
export type WorkerReady = { type: 'ready'; url: string; banner: string };

const isReady = (message: unknown): message is WorkerReady =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready';

/**
 * WORKERS above 1 (PostgreSQL only, docs/configuration.md): this process forks that many workers that each run the
 * whole platform and share one listening port (node:cluster hands connections round-robin), and serves nothing
 * itself. Replicas on one database already agree through it: its change notifications drop every worker's caches,
 * its advisory locks serialize token fetches and migrations. The first worker starts alone (it migrates, and with
 * the development issuer it makes the signing key the others then read); the rest start together. The server file
 * and the banner come once all answer. A worker that dies is replaced; SIGTERM or SIGINT stops them all gracefully.
 */
export const runPrimary = async (config: Config, log: Logger): Promise<void> => {
  let stopping = false;
  const workers = new Set<Worker>();
  const fork = () =>
    new Promise<WorkerReady>((resolve, reject) => {
      const worker = cluster.fork();
      workers.add(worker);
      worker.on('message', (message: unknown) => {
        if (isReady(message)) resolve(message);
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        reject(new Error(`worker ${worker.process.pid} exited before it was ready (${signal ?? code})`));
        if (stopping) return;
        log.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
        fork().catch((error: unknown) => log.error({ err: error }, 'a replacement worker did not start'));
      });
    });

  const stopWorkers = async () => {
    stopping = true;
    const exits = [...workers].map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
    for (const worker of workers) worker.process.kill('SIGTERM');
    await Promise.all(exits);
  };
  const stop = async (signal: string) => {
    if (stopping) return;
    log.info({ signal, workers: workers.size }, 'shutting down');
    await stopWorkers();
    await removeServerFile(config.dataDir, process.pid);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  try {
    const first = await fork();
    await Promise.all(Array.from({ length: config.workers - 1 }, fork));
    await writeServerFile(config.dataDir, { pid: process.pid, url: first.url, embedded: false });
    process.stdout.write(first.banner);
    log.info({ url: first.url, workers: config.workers }, 'started');
  } catch (error) {
    await stopWorkers();
    throw error;
  }
};
