import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/open-database.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { tableCounts } from './counts.ts';
import { smallFile } from './fixture.ts';

const backends = await testBackends();
const child = fileURLToPath(new URL('./fixtures/import-child.ts', import.meta.url));
const EVENTS = 120_000;

describe.each(backends)('an import killed midway on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('leaves nothing partial', async () => {
    const file = smallFile();
    const guid = file.subscriptions[0]!.environments[0]!.guid;
    file.renderEvents = Array.from({ length: EVENTS }, (_, i) => ({
      environmentGuid: guid,
      kind: 'Pdf',
      at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      count: 1,
    }));
    const fileName = join(database.dataDir, 'big.json');
    await writeFile(fileName, JSON.stringify(file));

    // PGlite is single-process: let the child have the folder, then reopen it afterwards.
    if (!database.databaseUrl) await database.detach();
    const target = database.databaseUrl ?? database.dataDir;
    // tsx as a loader inside this one process: the `tsx` command would run the script in a grandchild that
    // outlives the kill and goes on writing.
    const proc = spawn(process.execPath, ['--import', 'tsx', child, target, fileName], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const outcome = await new Promise<string>((resolve) => {
      let seen = '';
      proc.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        // Killed after some rows were written inside the transaction, before it could commit.
        if (seen.includes('progress') && !proc.killed) proc.kill('SIGKILL');
      });
      proc.on('exit', () => resolve(seen.includes('done') ? 'completed' : 'killed'));
    });
    expect(outcome).toBe('killed');

    const reopened = database.databaseUrl ? database : await openDatabase({ dataDir: database.dataDir });
    const counts = await tableCounts(reopened.db);
    if (reopened !== database) await reopened.close();
    // Either nothing (killed before commit) or all of it; never some.
    const complete = counts.users === 2 && counts.renders === EVENTS;
    const empty = Object.values(counts).every((n) => n === 0);
    expect({ complete, empty, counts }).toMatchObject(complete ? { complete: true } : { empty: true });
  });
});
