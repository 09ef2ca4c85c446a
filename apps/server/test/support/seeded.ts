import { importDataFile } from '@platform/store';
import type { TestBackend, TestDatabase } from '@platform/store/testing';
import { afterAll, beforeAll } from 'vitest';
import { fixture } from './fixture.ts';
import { startTestPlatform, type TestPlatform } from './platform.ts';

/** A started platform with the fixture imported, for one describe block; closed after it. */
export const seededPlatform = (backend: TestBackend, env: Record<string, string> = {}) => {
  const state = { tp: undefined as unknown as TestPlatform, now: new Date() };
  beforeAll(async () => {
    state.tp = await startTestPlatform(backend, env);
    await importDataFile(state.tp.database, fixture(state.now));
  });
  afterAll(async () => {
    await state.tp?.close();
  });
  return state;
};

export const json = async <T = unknown>(response: Response): Promise<T> => (await response.json()) as T;

/**
 * A fresh database of `backend` with the fixture imported, closed again, for servers started as processes of their
 * own (PGlite allows one process at a time); `close()` drops it.
 */
export const seededDatabase = async (backend: TestBackend): Promise<TestDatabase> => {
  const database = await backend.fresh();
  await importDataFile(database, fixture(new Date()));
  await database.detach();
  return database;
};
