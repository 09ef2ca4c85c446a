import { ValidationError } from '@platform/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importDataFile } from '../src/import/import-data-file.ts';
import { ingestRenderEvents } from '../src/renders/ingest-render-events.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { tableCounts } from './counts.ts';
import { smallFile } from './fixture.ts';

const backends = await testBackends();

describe.each(backends)('ingestRenderEvents on $name', (backend) => {
  let database: TestDatabase;
  let guids: string[];
  beforeEach(async () => {
    database = await backend.fresh();
    const file = smallFile();
    file.renderEvents = [];
    await importDataFile(database, file);
    guids = file.subscriptions[0]!.environments.map((e) => e.guid);
  });
  afterEach(() => database.close());

  it('rolls events up per environment, UTC day, kind and watermark, adding to what is there', async () => {
    const events = Array.from({ length: 5000 }, (_, i) => ({
      environmentGuid: guids[i % 3]!,
      kind: ['Pdf', 'Image', 'Mp4'][i % 3]!,
      watermarked: i % 2 === 0,
      at: new Date(Date.UTC(2026, 0, 1) + i * 600_000).toISOString(),
      count: 1 + (i % 2),
    }));
    expect(await ingestRenderEvents(database, events)).toBe(5000);
    const once = await tableCounts(database.db);
    expect(once.renders).toBe(7500);
    // Runtime ingestion is additive: the same batch again counts again, without new roll-up rows.
    await ingestRenderEvents(database, events);
    const twice = await tableCounts(database.db);
    expect(twice.renders).toBe(15_000);
    expect(twice.render_daily).toBe(once.render_daily);
    expect(twice.imported_render_events).toBe(0);
    expect(await ingestRenderEvents(database, [])).toBe(0);
  });

  it('refuses the whole batch when a guid is unknown, naming it', async () => {
    const events = [
      { environmentGuid: guids[0]!, kind: 'Pdf', at: '2026-01-01T00:00:00Z' },
      { environmentGuid: crypto.randomUUID(), kind: 'Pdf', at: '2026-01-01T00:00:00Z' },
    ];
    const error = await ingestRenderEvents(database, events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors ?? {})).toEqual(['[1].environmentGuid']);
    expect((await tableCounts(database.db)).renders).toBe(0);
  });
});
