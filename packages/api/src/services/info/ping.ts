import { ServiceError } from '@platform/core';
import { loggableError } from '@platform/store';
import type { Service } from '../context.ts';

export type PingInput = Record<string, never>;

/** `GET /api/ping`: 200 without a body while the database answers; else 503 (needs no token). */
export const ping: Service<PingInput, void> = async (ctx) => {
  try {
    await ctx.database.checkAlive();
  } catch (error) {
    ctx.log.warn({ err: loggableError(error) }, 'ping: the database does not answer');
    throw new ServiceError('UNAVAILABLE', 'The database does not answer; try again shortly.', {
      cause: error,
    });
  }
};
