/**
 * The log as an operator reads it from a real `platform-server start` through a pipe (docs/errors.md, "The log"):
 * lines are gathered before they are written, yet each arrives whole, in the order it was logged, within the
 * batching delay, and nothing gathered is lost when SIGTERM stops the server.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '@platform/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_BATCH_CHARS } from '../../src/logger.ts';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { type ServerChild, startServerChild } from '../support/server-child.ts';

type Line = { msg: string; traceId?: string; signal?: string };

const traceparent = (n: number) => `00-${n.toString(16).padStart(32, '0')}-00000000000000aa-01`;
const traceIdOf = (n: number) => n.toString(16).padStart(32, '0');

/**
 * Every complete log line written so far (the start banner, plain text, aside); throws on one that is not JSON
 * (two lines run together, a cut line).
 */
const linesOf = (server: ServerChild): Line[] =>
  server.output
    .join('')
    .split('\n')
    .slice(0, -1)
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as Line);

const ping = async (server: ServerChild, n: number) => {
  const response = await fetch(`${server.url}/api/ping`, { headers: { traceparent: traceparent(n) } });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
};

describe('the log through a pipe', () => {
  let dataDir: string;
  let issuer: TestIssuer;
  let server: ServerChild;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'log-output-'));
    const database = await openDatabase({ dataDir });
    await migrate(database);
    await database.close();
    issuer = await startTestIssuer();
    server = await startServerChild({
      dataDir,
      databaseUrl: undefined,
      issuerUrl: issuer.url,
      env: { LOG_LEVEL: 'info' },
    });
  });
  afterAll(async () => {
    await server?.kill9();
    await issuer?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('writes every line whole and in order, the last of a quiet moment within the delay, and all before exit', async () => {
    // More than one batch of lines (a ping's line has about 230 characters), then one line alone: it must not wait
    // for others that never come.
    const count = Math.ceil((1.5 * LOG_BATCH_CHARS) / 230);
    for (let n = 1; n <= count; n++) await ping(server, n);
    // The start's own readiness checks are logged too: only this test's requests, by their trace ids.
    const requestLines = () =>
      linesOf(server).filter((line) => line.msg === 'GET /api/ping 200' && line.traceId?.startsWith('0000'));
    const waited = Date.now();
    while (requestLines().length < count && Date.now() - waited < 2000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(requestLines().map((line) => line.traceId)).toEqual(
      Array.from({ length: count }, (_, i) => traceIdOf(i + 1)),
    );
    // Within the 100 ms delay, plus the scheduling of two processes on a busy machine.
    expect(Date.now() - waited).toBeLessThan(1500);

    // Lines gathered when SIGTERM comes are written before the process ends, before the shutdown's own lines.
    for (let n = count + 1; n <= count + 5; n++) await ping(server, n);
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    await exited;
    const lines = linesOf(server);
    expect(requestLines().map((line) => line.traceId)).toEqual(
      Array.from({ length: count + 5 }, (_, i) => traceIdOf(i + 1)),
    );
    const lastRequest = lines.findLastIndex((line) => line.msg === 'GET /api/ping 200');
    const shuttingDown = lines.findIndex((line) => line.msg === 'shutting down');
    expect(shuttingDown).toBeGreaterThan(lastRequest);
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});
