import { type EnvironmentRenderModel, environmentRenderGroups, parseRenderQuery } from '@platform/core';
import { listRenderRows } from '@platform/store';
import { loadEnvironment } from '../access.ts';
import type { Service } from '../context.ts';
import type { GetEnvironmentRendersInput } from './schemas.ts';

/**
 * `GET /api/v1/environments/{environmentId}/renders` (docs/admin-api.md): the endpoint lists 400, so a
 * malformed id is a 400 (docs/errors.md); the query is checked after the caller may see the environment.
 */
export const getEnvironmentRenders: Service<GetEnvironmentRendersInput, EnvironmentRenderModel[]> = async (
  ctx,
  input,
) => {
  const { environment } = await loadEnvironment(ctx, input.environmentId, 400);
  const query = parseRenderQuery(
    { groupBy: input.groupBy, startDate: input.startDate, endDate: input.endDate },
    ctx.now,
    { allowTop: false },
  );
  const rows = await listRenderRows(ctx.database.db, { environmentId: environment.id }, query);
  return environmentRenderGroups(rows, query);
};
