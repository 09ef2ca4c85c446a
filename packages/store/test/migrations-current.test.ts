import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/migrate.ts';
import * as schema from '../src/schema/index.ts';

describe('generated migrations', () => {
  it('are up to date with the schema (else run `npm run db:generate -w @platform/store`)', async () => {
    const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: { idx: number }[];
    };
    const last = journal.entries.at(-1)!;
    const snapshotFile = join(migrationsFolder, 'meta', `${String(last.idx).padStart(4, '0')}_snapshot.json`);
    const previous = JSON.parse(await readFile(snapshotFile, 'utf8'));
    const current = generateDrizzleJson(schema, previous.id);
    expect(await generateMigration(previous, current)).toEqual([]);
    // The comparison does see differences: against an empty schema it would drop every table.
    expect((await generateMigration(previous, generateDrizzleJson({}, previous.id))).length).toBeGreaterThan(
      0,
    );
  });
});
