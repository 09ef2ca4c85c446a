/**
 * The destination of the server's log (logger.ts) on a file: `flush` calls back once every line logged before it is
 * in the file (the start banner is written after it), and lines keep their order across batches.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_BATCH_CHARS, logDestination } from '../../src/logger.ts';

describe('the log destination', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'log-destination-'));
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('has every earlier line in the file when flush calls back, in order', async () => {
    const file = join(folder, 'out.log');
    const handle = await open(file, 'w');
    const logger = pino({ base: null }, logDestination(handle.fd));
    // One line alone (waiting for company), then more than one batch (about 100 characters a line).
    logger.info({ n: 0 }, 'first');
    const count = Math.ceil((1.5 * LOG_BATCH_CHARS) / 100);
    for (let n = 1; n <= count; n++) logger.info({ n, padding: 'x'.repeat(60) }, 'line');
    const written = await new Promise<string>((resolve) =>
      logger.flush(() => resolve(readFileSync(file, 'utf8'))),
    );
    const numbers = written
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { n: number }).n);
    expect(numbers).toEqual(Array.from({ length: count + 1 }, (_, n) => n));
    await handle.close();
  });
});
