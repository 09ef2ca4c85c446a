import { boundText } from '@platform/core';
import { ACTIVITY_MAX_AGE_MS, listConnectorActivity } from '@platform/store';
import { loadConnector } from '../connectors/load.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';

type ActivityInput = { environment: string; connectorId: string; limit?: number | undefined };

/** `GET .../connectors/{connectorId}/activity`: the newest invocations first, with their fetches. */
export const connectorActivity: Service<ActivityInput, unknown> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  const connector = await loadConnector(ctx, environment.id, input.connectorId);
  // This process's own recent runs wait to be written in a batch: they belong in the answer.
  await ctx.connectorActivity?.flush();
  const since = new Date(ctx.now.getTime() - ACTIVITY_MAX_AGE_MS);
  const rows = await listConnectorActivity(ctx.database.db, connector.id, input.limit ?? 100, since);
  return {
    data: rows.map((row) => ({
      at: row.at.toISOString(),
      method: row.method,
      usage: row.usage,
      status: row.status,
      code: row.code,
      // Rows written before texts were bounded on the way in are bounded on the way out.
      error: row.error === null ? null : boundText(row.error),
      durationMs: row.durationMs,
      fetches: row.fetches,
      logs: row.logs,
    })),
  };
};
