import { hostname, userInfo } from 'node:os';
import {
  createSecretBox,
  findUnopenedSecrets,
  loadOrCreateSecretsKey,
  migrate,
  openDatabase,
  type ResealSummary,
  recordRotation,
  resealValues,
} from '@platform/store';
import { ConfigError, loadConfig } from '../config.ts';
import type { DataDirLock } from '../data-dir-lock.ts';
import { takeOrFindOwner } from '../data-dir-owner.ts';
import { EMBEDDED_BATCH_SIZE, rotateThroughServer } from '../import-socket.ts';
import { resealProgress } from '../reseal-progress.ts';
import { UsageError } from './usage-error.ts';

/** Values per batch unless --batch-size says otherwise: one short statement each, so servers barely notice. */
const DEFAULT_BATCH_SIZE = 500;
/**
 * The rest after each batch, as a multiple of the time it took (unless --pause-ms): the rotation holds the database a
 * third of its time. Resting as long as each batch took, the proxy's p99 beside it measured 1.4-2.4 times its value
 * without rotation on a 2-core machine, against the 2 times the runbook promises.
 */
const REST_RATIO = 2;
const batchSizeOf = (text: string | undefined, embedded: boolean): number => {
  if (text === undefined) return embedded ? EMBEDDED_BATCH_SIZE : DEFAULT_BATCH_SIZE;
  const size = Number(text);
  if (!/^\d+$/.test(text) || size < 1 || size > 10_000) {
    throw new UsageError('--batch-size must be a whole number from 1 to 10000.');
  }
  return size;
};

const pauseOf = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const pause = Number(text);
  if (!/^\d+$/.test(text) || pause > 60_000) {
    throw new UsageError('--pause-ms must be a whole number of milliseconds from 0 to 60000.');
  }
  return pause;
};

/** The closing lines: how many values each key id seals now, the configured ones first (0 for none). */
export const summaryLines = (summary: ResealSummary, keyIds: readonly string[]): string => {
  const ids = [...keyIds, ...Object.keys(summary.counts).filter((id) => !keyIds.includes(id))];
  const lines = [`Re-sealed ${summary.resealed} values under key ${keyIds[0]}.`, 'Sealed values per key id:'];
  const width = Math.max(...ids.map((id) => id.length));
  for (const id of ids) lines.push(`  ${id.padEnd(width)}  ${summary.counts[id] ?? 0}`);
  return `${lines.join('\n')}\n`;
};

/**
 * `platform-server rotate-secrets [--batch-size N]`: re-seals every stored secret under SECRETS_KEY's first key, in
 * batches, while servers serve (docs/deployment.md, "Rotating the secrets key"). Stopped at any point it is run
 * again; run again when done it finds nothing to do. On the embedded database, a running server does the work
 * (with its own SECRETS_KEY) and this command shows its progress.
 */
export const rotateSecrets = async (options: {
  'batch-size'?: string;
  'pause-ms'?: string;
}): Promise<void> => {
  const config = loadConfig();
  const batchSize = batchSizeOf(options['batch-size'], config.databaseUrl === undefined);
  const pauseMs = pauseOf(options['pause-ms']);
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    const owner = await takeOrFindOwner(config.dataDir, 'rotate-secrets');
    if (typeof owner === 'string') {
      process.stderr.write(
        `A server is running at ${owner} on this embedded database: rotating through it.\n`,
      );
      const { summary, keyIds } = await rotateThroughServer(
        config.dataDir,
        { batchSize, pauseMs },
        userInfo().username,
        resealProgress(),
      );
      process.stdout.write(summaryLines(summary, keyIds));
      return;
    }
    lock = owner;
  }
  try {
    const secrets = createSecretBox(config.secretsKey ?? (await loadOrCreateSecretsKey(config.dataDir)));
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config.databaseTimeouts,
    });
    try {
      await migrate(database);
      // Values this SECRETS_KEY cannot open would stay behind: said before anything is rewritten.
      const unopened = await findUnopenedSecrets(database.db, secrets);
      if (unopened) throw new ConfigError(unopened.message);
      const summary = await resealValues(database.db, secrets, {
        batchSize,
        pauseMs,
        restRatio: REST_RATIO,
        onProgress: resealProgress(),
      });
      // One entry for the whole rotation, once its last batch has committed (docs/deployment.md).
      await recordRotation(database.db, summary, secrets.sealingKeyId, {
        user: userInfo().username,
        host: hostname(),
      });
      process.stdout.write(summaryLines(summary, secrets.keyIds));
    } finally {
      await database.close();
    }
  } finally {
    await lock?.release();
  }
};
