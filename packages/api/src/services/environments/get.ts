import { currentMonthRange, type EnvironmentModel } from '@platform/core';
import { sumRenders } from '@platform/store';
import { loadEnvironment } from '../access.ts';
import type { Service } from '../context.ts';
import { type GetEnvironmentInput, toEnvironmentModel } from './schemas.ts';

/** `GET /api/v1/environments/{environmentId}`: not visible, unknown or malformed → 404. */
export const getEnvironment: Service<GetEnvironmentInput, EnvironmentModel> = async (ctx, input) => {
  const { environment } = await loadEnvironment(ctx, input.environmentId, 404);
  const renders = await sumRenders(
    ctx.database.db,
    { environmentId: environment.id },
    currentMonthRange(ctx.now),
  );
  return toEnvironmentModel(environment, renders);
};
