import { InfoResponse } from '@platform/core';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor } from '../access.fixture.ts';
import { getInfo } from './get.ts';
import { ping } from './ping.ts';

const backends = await testBackends();

describe.each(backends)('info services on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.fresh();
  }, 120_000);
  afterAll(() => database?.close());

  it('info.get answers the server version', async () => {
    const info = await getInfo(contextFor(database, ''), {});
    expect(InfoResponse.parse(info)).toEqual({ data: { serverVersion: '1.2.3' } });
  });

  it('ping resolves while the database answers, and is 503 when it does not', async () => {
    await expect(ping(contextFor(database, ''), {})).resolves.toBeUndefined();
    const broken = { ...database, checkAlive: () => Promise.reject(new Error('connection refused')) };
    await expect(
      ping({ ...contextFor(database, ''), database: broken as unknown as TestDatabase }, {}),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 503 });
  });
});
