import type { InfoResponse } from '@platform/core';
import type { Service } from '../context.ts';

export type GetInfoInput = Record<string, never>;

/** `GET /api/v1/info`: the server package's version (docs/admin-api.md); needs no token. */
export const getInfo: Service<GetInfoInput, InfoResponse> = async (ctx) => ({
  data: { serverVersion: ctx.serverVersion },
});
