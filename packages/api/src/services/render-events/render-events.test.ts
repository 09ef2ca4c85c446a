import { ValidationError } from '@platform/core';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor, ENV_DEV, ENV_SANDBOX, SUB_ACME, seededDatabase } from '../access.fixture.ts';
import { getSubscription } from '../subscriptions/get.ts';
import { ingestRenderEvents } from './ingest.ts';

const backends = await testBackends();

describe.each(backends)('render event ingestion on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await seededDatabase(backend);
  }, 120_000);
  afterAll(() => database?.close());

  const ingester = () => contextFor(database, 'svc|ingest', ['platform:ingest']);
  const used = async () => {
    const model = await getSubscription(contextFor(database, 'auth0|alice'), { subscriptionId: SUB_ACME });
    return [model.usedRenders, model.usedWatermarkedRenders];
  };

  it('adds the events to the usage and answers how many were accepted', async () => {
    expect(await used()).toEqual([18, 4]);
    const result = await ingestRenderEvents(ingester(), {
      body: [
        { environmentGuid: ENV_SANDBOX, kind: 'Pdf', at: '2026-03-15T01:00:00Z' },
        { environmentGuid: ENV_DEV.toUpperCase(), kind: 'Image', at: '2026-03-05T10:00:00+02:00', count: 4 },
        { environmentGuid: ENV_DEV, kind: 'Pdf', watermarked: true, at: '2026-03-05T10:00:00Z', count: 2 },
      ],
    });
    expect(result).toEqual({ accepted: 3 });
    expect(await used()).toEqual([23, 6]);
    expect(await ingestRenderEvents(ingester(), { body: [] })).toEqual({ accepted: 0 });
  });

  it('rejects the whole batch naming the bad element', async () => {
    const call = ingestRenderEvents(ingester(), {
      body: [
        { environmentGuid: ENV_SANDBOX, kind: 'Pdf', at: '2026-03-15T01:00:00Z' },
        { environmentGuid: 'e0000000-0000-4000-8000-000000000999', kind: 'Pdf', at: '2026-03-15T01:00:00Z' },
      ],
    });
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    // The detail names the element as `errors` does.
    await expect(call).rejects.toMatchObject({
      errors: { 'body[1].environmentGuid': expect.any(Array) },
      message: expect.stringMatching(/^body\[1\]\.environmentGuid: no environment has this guid/),
    });
    await expect(ingestRenderEvents(ingester(), { body: [{ kind: 'Pdf' }] })).rejects.toBeInstanceOf(
      ValidationError,
    );
    // A misspelt key names the key meant, as the data file's do.
    await expect(
      ingestRenderEvents(ingester(), {
        body: [
          { environmentGuid: ENV_SANDBOX, kind: 'Pdf', at: '2026-03-15T01:00:00Z', cuont: 2, zzzzzzzz: 1 },
        ],
      }),
    ).rejects.toMatchObject({
      errors: { '[0].cuont': ['unknown field; did you mean count?'], '[0].zzzzzzzz': ['unknown field'] },
    });
    expect(await used()).toEqual([23, 6]);
  });
});
