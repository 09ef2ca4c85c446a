import type { Service } from '../context.ts';

export type PingInput = Record<string, never>;

/**
 * `GET /api/ping`: liveness, 200 without a body whenever the process answers (needs no token). It never touches the
 * database, so a frozen database cannot slow it; `GET /api/ready` says whether requests can be served.
 */
export const ping: Service<PingInput, void> = async () => {};
