import { ServiceError } from '@platform/core';
import type { Service } from '../context.ts';

export type ReadyInput = Record<string, never>;

/**
 * `GET /api/ready`: readiness for a load balancer (docs/deployment.md). 200 without a body while the database answers
 * and the server is not shutting down; else 503, so that traffic goes to another replica. Reads what the database's
 * probe last saw: it answers at once, even while the database is frozen.
 */
export const ready: Service<ReadyInput, void> = async (ctx) => {
  if (ctx.draining?.()) {
    throw new ServiceError('UNAVAILABLE', 'The server is shutting down; send requests to another replica.');
  }
  if (!ctx.database.available()) {
    throw new ServiceError('UNAVAILABLE', 'The database does not answer; try again shortly.');
  }
};
