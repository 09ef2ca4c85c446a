import { importDataFile } from '@platform/store';
import type { TestBackend } from '@platform/store/testing';
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
