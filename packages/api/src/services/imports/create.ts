import { ForbiddenError } from '@platform/core';
import { importDataFile } from '@platform/store';
import { isOperator, type Service } from '../context.ts';

type ImportSummary = Awaited<ReturnType<typeof importDataFile>>;

/** Upserts a data file (docs/data-file.md) through the running server: operators only. */
export const createImport: Service<{ body: unknown }, ImportSummary> = async (ctx, input) => {
  if (!isOperator(ctx.caller))
    throw new ForbiddenError("Importing a data file needs the token role 'platform:admin'.");
  return importDataFile(ctx.database, input.body);
};
