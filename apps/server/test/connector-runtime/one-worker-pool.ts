import { defaultLimits, type RuntimeLimits } from '@platform/runtime';
import pino from 'pino';
import { createRuntimePool, type RuntimePool } from '../../src/runtime/runtime-pool.ts';

/** The server's runtime pool with one real worker thread and no fetch, for tests of the pool itself. */
export const oneWorkerPool = (limits: Partial<RuntimeLimits> = {}): RuntimePool =>
  createRuntimePool({
    limits: { ...defaultLimits, ...limits },
    fetchFor: () => () => Promise.reject(new Error('no fetch in this test')),
    log: pino({ level: 'silent' }),
    workers: 1,
  });

/** `getModel` of `script`, published under `version`, run with the server usage. */
export const invokeModel = (pool: RuntimePool, version: string, script: string) =>
  pool.invoke({
    environmentId: 1,
    subscriptionId: 'subscription-1',
    connectorId: 'c0ffee00-0000-4000-8000-000000000001',
    version,
    script,
    options: {},
    caller: { userId: 'tester', roles: new Set(['connector:server']) },
    usage: 'server',
    method: 'getModel',
    args: [{}],
    callOptions: {},
  });
