import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createSecretBox, openDatabase, schema } from '@platform/store';
import type { TestDatabase } from '@platform/store/testing';
import { asc, eq } from 'drizzle-orm';
import { type Listening, listen } from './loopback-servers.ts';

export const OLD_KEY = Buffer.alloc(32, 11).toString('base64');
export const NEW_KEY = Buffer.alloc(32, 12).toString('base64');
/** The runbook's middle step: the new key first (it seals), the old one kept (it opens). */
export const BOTH_KEYS = `new:${NEW_KEY},old:${OLD_KEY}`;
export const ENVIRONMENT_PATH = '/grafx/api/v1/environment/acme-prod';
export const SECRET_VALUE = 'kept-secret';

const BIN = fileURLToPath(new URL('../../bin/platform-server.js', import.meta.url));

export type Command = {
  child: ChildProcess;
  /** stdout and stderr as they arrive. */
  output: () => string;
  stderrLines: () => string[];
  exited: Promise<number | null>;
};

/** `platform-server <args>` as an operator runs it (stdout and stderr piped, so not a terminal). */
export const runCommand = (args: string[], env: Record<string, string>): Command => {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const exited = once(child, 'exit').then(([code]) => {
    clearTimeout(timer);
    return code as number | null;
  });
  return { child, output: () => output, stderrLines: () => stderr.split('\n'), exited };
};

/** The progress lines of rotate-secrets without a terminal: `Re-sealed done/total values (p%)`. */
export const progressOf = (lines: string[]): { done: number; total: number }[] =>
  lines.flatMap((line) => {
    const match = /^Re-sealed (\d+)\/(\d+) values/.exec(line);
    return match ? [{ done: Number(match[1]), total: Number(match[2]) }] : [];
  });

/** Writes `count` cached tokens of `connectorId` sealed under `secretsKey` (the server on the database stopped). */
export const writeSealedTokens = async (
  database: TestDatabase,
  connectorId: string,
  count: number,
  secretsKey: string,
): Promise<void> => {
  const secrets = createSecretBox(secretsKey);
  const opened = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  try {
    const now = new Date();
    for (let from = 0; from < count; from += 500) {
      const rows = Array.from({ length: Math.min(500, count - from) }, (_, index) => ({
        connectorId,
        usage: 'server',
        revision: 1,
        userId: `user-${from + index}`,
        accessToken: secrets.seal(`access-${from + index}`),
        refreshToken: secrets.seal(`refresh-${from + index}`),
        tokenType: 'Bearer',
        expiresAt: new Date(now.getTime() + 3_600_000),
        updatedAt: now,
      }));
      await opened.db.insert(schema.connectorTokens).values(rows);
    }
  } finally {
    await opened.close();
  }
};

/** Every cached token of the database opened with `secretsKey`: each must open to what was written. */
export const readSealedTokens = async (
  database: TestDatabase,
  secretsKey: string,
): Promise<{ sealed: string[]; opened: string[] }> => {
  const secrets = createSecretBox(secretsKey);
  const opened = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  try {
    const rows = await opened.db.select().from(schema.connectorTokens);
    const sealed = rows.flatMap((row) => [row.accessToken, row.refreshToken ?? '']);
    return { sealed, opened: sealed.map((value) => secrets.open(value)) };
  } finally {
    await opened.close();
  }
};

/** The `secrets.rotate` entries of the audit trail, oldest first (the server on the database stopped). */
export const rotationEntries = async (database: TestDatabase) => {
  const opened = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  try {
    const rows = await opened.db
      .select()
      .from(schema.auditEntries)
      .where(eq(schema.auditEntries.action, 'secrets.rotate'))
      .orderBy(asc(schema.auditEntries.at));
    return rows.map((row) => ({
      outcome: row.outcome,
      target: { type: row.targetType, id: row.targetId },
      actor: row.actorIssuer,
      changes: row.changes,
    }));
  } finally {
    await opened.close();
  }
};

/** The connector's API: 200 only when the request carries the static key the connector was given, else 401. */
export const startKeyedTarget = (): Promise<Listening> =>
  listen((req, res) => {
    req.resume();
    const keyed = req.headers['x-api-key'] === SECRET_VALUE;
    res.writeHead(keyed ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keyed }));
  });

/** `platform_sealed_values` of a /metrics text, by key id. */
export const sealedValuesOf = (metrics: string): Record<string, number> =>
  Object.fromEntries(
    [...metrics.matchAll(/^platform_sealed_values\{key_id="([^"]+)"\} (\d+)$/gm)].map((match) => [
      match[1] as string,
      Number(match[2]),
    ]),
  );

/**
 * Proxied requests, `parallel` at a time, until `stop()`: each must reach the target with the connector's static key.
 * Anything else is a failure, kept with what it was.
 */
export const proxyLoad = (
  urls: () => string[],
  connectorId: string,
  authorization: string,
  targetUrl: string,
  parallel = 2,
) => {
  let running = true;
  let sent = 0;
  const failures: string[] = [];
  const loop = async (lane: number) => {
    for (let turn = lane; running; turn++) {
      const live = urls();
      const url = live[turn % live.length];
      if (!url) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      sent++;
      try {
        const response = await fetch(`${url}${ENVIRONMENT_PATH}/connectors/${connectorId}/proxy`, {
          headers: { authorization, 'x-grafx-proxy-external-url': `${targetUrl}/items` },
        });
        const text = await response.text();
        if (response.status !== 200) failures.push(`${response.status} ${text.slice(0, 200)}`);
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const lanes = Array.from({ length: parallel }, (_, lane) => loop(lane));
  return {
    sent: () => sent,
    failures,
    stop: async () => {
      running = false;
      await Promise.all(lanes);
    },
  };
};
