import { ForbiddenError } from '@platform/core';
import { importDataFile } from '@platform/store';
import { recordChange } from '../audit/record.ts';
import { isOperator, type Service } from '../context.ts';

type ImportSummary = Awaited<ReturnType<typeof importDataFile>>;

/** Upserts a data file (docs/data-file.md) through the running server: operators only. */
export const createImport: Service<{ body: unknown }, ImportSummary> = async (ctx, input) => {
  if (!isOperator(ctx.caller))
    throw new ForbiddenError("Importing a data file needs the token role 'platform:admin'.");
  return importDataFile(ctx.database, input.body, {
    audit: (tx, summary) =>
      recordChange(ctx, tx, {
        action: 'data.import',
        // A data file has no id of its own: the request's trace names it.
        target: { type: 'dataFile', id: ctx.traceId },
        changes: Object.fromEntries(Object.entries(summary).map(([kind, count]) => [kind, { to: count }])),
      }),
  });
};
