import { InfoResponse } from '@platform/core';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor } from '../access.fixture.ts';
import { getInfo } from './get.ts';
import { ping } from './ping.ts';
import { ready } from './ready.ts';

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

  it('ping resolves without asking the database, even one that does not answer', async () => {
    const frozen = { ...database, db: { execute: () => new Promise(() => {}) }, available: () => false };
    await expect(
      ping({ ...contextFor(database, ''), database: frozen as unknown as TestDatabase }, {}),
    ).resolves.toBeUndefined();
  });

  it('ready resolves while the database is available, and is 503 while it is not or the server shuts down', async () => {
    await expect(ready(contextFor(database, ''), {})).resolves.toBeUndefined();
    const away = { ...database, available: () => false };
    await expect(
      ready({ ...contextFor(database, ''), database: away as unknown as TestDatabase }, {}),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    await expect(ready({ ...contextFor(database, ''), draining: () => true }, {})).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      status: 503,
    });
  });
});
