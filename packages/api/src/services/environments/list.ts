import type { BasicEnvironmentModel } from '@platform/core';
import { listEnvironments as queryEnvironments } from '@platform/store';
import { loadSubscription } from '../access.ts';
import { isOperator, type Service } from '../context.ts';
import { type ListEnvironmentsInput, toBasicEnvironment } from './schemas.ts';

/**
 * `GET /api/v1/environments` (docs/admin-api.md): the environments of `subscriptionId` the caller may see (a
 * malformed, unknown or invisible subscription → 404), or without it every visible environment; `environmentName`
 * matches `name` or `technicalName`, case-insensitive substring. Ordered by type, then name.
 */
export const listEnvironments: Service<ListEnvironmentsInput, BasicEnvironmentModel[]> = async (
  ctx,
  input,
) => {
  const subscription =
    input.subscriptionId === undefined
      ? undefined
      : (await loadSubscription(ctx, input.subscriptionId, 404)).subscription;
  const rows = await queryEnvironments(ctx.database.db, {
    subscriptionId: subscription?.id,
    visibleTo: isOperator(ctx.caller) ? undefined : ctx.caller.userId,
    name: input.environmentName,
  });
  return rows.map(toBasicEnvironment);
};
