import { chmod, rm } from 'node:fs/promises';
import { createServer, request, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readJsonBody } from '@platform/api';
import { isServiceError, TEMPLATE_CONTENT_MAX_DEPTH } from '@platform/core';
import {
  type Database,
  exportDataFile,
  findUnopenedSecrets,
  importDataFile,
  loggableError,
  type ResealProgress,
  type ResealSummary,
  recordRotation,
  resealValues,
  type SecretBox,
} from '@platform/store';
import type { Logger } from 'pino';
import { localImportAudit } from './local-import-audit.ts';

/**
 * PGlite belongs to one process, so `platform-server import` and `export` cannot open the embedded database beside
 * a running server. The server listens on a Unix socket in DATA_DIR instead, readable by its own user only: whoever may read the
 * data folder may import into it, whatever issuer the HTTP API trusts.
 */
export const importSocketPath = (dataDir: string): string => join(dataDir, 'import.sock');

const MAX_BYTES = 256 * 1024 * 1024;

/**
 * The pace of a rotation the server does for `platform-server rotate-secrets` on the embedded database. PGlite runs
 * in this process, so each batch holds the event loop that answers requests while it runs: small batches (a
 * millisecond or two each), and a rest of four times each batch's duration after it, so requests wait little and
 * seldom. Batches of 25 took the proxy's p99 beside them to 1.6-2.3 times its value; of 10, to 1.3-1.6 times.
 */
export const EMBEDDED_BATCH_SIZE = 10;
const EMBEDDED_REST_RATIO = 4;
/** A client that stops sending in the middle of the file is cut off after this long. */
const IDLE_MS = 30_000;

export const listenImportSocket = async (
  dataDir: string,
  database: Database,
  secrets: SecretBox,
  log: Logger,
  /** Called once an import has settled, before the answer: the server's read cache drops what it holds. */
  imported: () => void,
): Promise<() => Promise<void>> => {
  const path = importSocketPath(dataDir);
  await rm(path, { force: true });
  const server = createServer(async (req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/export') {
      try {
        return answer(200, await exportDataFile(database.db));
      } catch (error) {
        log.error({ err: { message: (error as Error).message } }, 'export failed');
        return answer(500, { message: (error as Error).message });
      }
    }
    const rotation = new URL(req.url ?? '/', 'http://socket');
    if (req.method === 'POST' && rotation.pathname === '/rotate-secrets') {
      const batchSize = Number(rotation.searchParams.get('batchSize'));
      const pause = rotation.searchParams.get('pauseMs');
      const pauseMs = pause === null || !/^\d+$/.test(pause) ? undefined : Number(pause);
      const pace = {
        batchSize: Number.isInteger(batchSize) && batchSize > 0 ? batchSize : EMBEDDED_BATCH_SIZE,
        pauseMs,
        restRatio: EMBEDDED_REST_RATIO,
      };
      return rotateSecrets(res, pace, {
        user: rotation.searchParams.get('user') ?? 'unknown',
        host: hostname(),
      });
    }
    if (req.method !== 'POST' || req.url !== '/import')
      return answer(404, { message: 'POST /import, POST /rotate-secrets or GET /export only' });
    try {
      // Parsed as it arrives, a chunk per turn of the event loop, as the HTTP import is: one JSON.parse of a file
      // of 100 MB would hold the server for seconds.
      const body = await readJsonBody(req, {
        limit: MAX_BYTES,
        idleMs: IDLE_MS,
        json: { maxValues: Number.POSITIVE_INFINITY, maxDepth: TEMPLATE_CONTENT_MAX_DEPTH },
      });
      const summary = await importDataFile(database, body.present ? body.value : undefined, {
        audit: localImportAudit,
      }).finally(imported);
      log.info({ summary }, 'data file imported');
      answer(200, summary);
    } catch (error) {
      if (isServiceError(error))
        return answer(error.status, { message: error.message, errors: error.errors });
      // Refusals of the data are ValidationErrors already; what is left is the server's own trouble, told as it is
      // (never a failed query's parameters: loggableError keeps the SQL text and SQLSTATE only).
      const loggable = loggableError(error);
      log.error({ err: loggable }, 'import failed');
      answer(500, { message: `The import failed: ${loggable.message}. Nothing was imported.` });
    }
  });
  /** `platform-server rotate-secrets` on this database: one JSON line per batch, then the summary (or the error). */
  const rotateSecrets = async (
    res: ServerResponse,
    pace: { batchSize: number; pauseMs: number | undefined; restRatio: number },
    operator: { user: string; host: string },
  ) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (value: RotationLine) => res.write(`${JSON.stringify(value)}\n`);
    try {
      const unopened = await findUnopenedSecrets(database.db, secrets);
      if (unopened) {
        line({ error: unopened.message });
      } else {
        const onProgress = (progress: ResealProgress) => void line({ progress });
        // The command stopped (Ctrl-C, a kill): so does the rotation, after the batch under way.
        const stopped = new AbortController();
        res.once('close', () => stopped.abort());
        const summary = await resealValues(database.db, secrets, {
          ...pace,
          onProgress,
          signal: stopped.signal,
        });
        await recordRotation(database.db, summary, secrets.sealingKeyId, operator);
        log.info({ resealed: summary.resealed, counts: summary.counts }, 'secrets re-sealed');
        line({ summary, keyIds: secrets.keyIds });
      }
    } catch (error) {
      const loggable = loggableError(error);
      log.error({ err: loggable }, 'rotate-secrets failed');
      line({ error: `The rotation stopped: ${loggable.message}. Run it again: what was done stays done.` });
    }
    res.end();
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  await chmod(path, 0o600);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(path, { force: true });
  };
};

type RotationLine =
  | { progress: ResealProgress }
  | { summary: ResealSummary; keyIds: readonly string[] }
  | { error: string };

/**
 * The client side of `platform-server rotate-secrets` on the embedded database: the running server re-seals with its
 * own keys; `onProgress` sees each batch. Rejects with the server's message when it refuses or stops.
 */
export const rotateThroughServer = (
  dataDir: string,
  pace: { batchSize: number; pauseMs: number | undefined },
  /** Who runs the command (the audit entry's actor). */
  user: string,
  onProgress: (progress: ResealProgress) => void,
): Promise<{ summary: ResealSummary; keyIds: readonly string[] }> =>
  new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: importSocketPath(dataDir),
        method: 'POST',
        path: `/rotate-secrets?${new URLSearchParams({
          batchSize: String(pace.batchSize),
          ...(pace.pauseMs === undefined ? {} : { pauseMs: String(pace.pauseMs) }),
          user,
        })}`,
      },
      (res) => {
        let pending = '';
        let settled = false;
        const take = (text: string) => {
          if (text === '') return;
          const value = JSON.parse(text) as RotationLine;
          if ('progress' in value) onProgress(value.progress);
          else if ('summary' in value) {
            settled = true;
            resolve(value);
          } else {
            settled = true;
            reject(new Error(value.error));
          }
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
            take(pending.slice(0, end));
            pending = pending.slice(end + 1);
          }
        });
        res.on('end', () => {
          take(pending);
          if (!settled) reject(new Error('The server ended the rotation without a summary: run it again.'));
        });
      },
    );
    req.on('error', reject);
    req.end();
  });

/** The client side: sends the data file to the running server; resolves with its status and answer. */
export const sendToImportSocket = (
  dataDir: string,
  body: string,
): Promise<{ status: number; body: unknown }> => askImportSocket(dataDir, 'POST', '/import', body);

/** The client side of `platform-server export`: the running server's data file. */
export const readExportSocket = (dataDir: string): Promise<{ status: number; body: unknown }> =>
  askImportSocket(dataDir, 'GET', '/export');

const askImportSocket = (
  dataDir: string,
  method: 'GET' | 'POST',
  path: string,
  body?: string,
): Promise<{ status: number; body: unknown }> =>
  new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: importSocketPath(dataDir),
        method,
        path,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
