import { ServiceError } from '@platform/core';
import { checkScript, RuntimeError } from '@platform/runtime';
import type { ServiceContext } from '../context.ts';

/**
 * Publish and republish refuse a script the runtime could never run: not an ES module, or without a default class.
 * The server checks in its runtime workers; without a runtime, here (the check is bounded by the runtime's limits).
 */
export const assertScriptRuns = async (ctx: ServiceContext, script: string): Promise<void> => {
  try {
    await (ctx.connectorRuntime ? ctx.connectorRuntime.check(script) : checkScript(script));
  } catch (error) {
    if (!(error instanceof RuntimeError)) throw error;
    throw new ServiceError('UNPROCESSABLE', `The connector's script cannot run: ${error.message}`, {
      members: { code: error.code },
    });
  }
};
