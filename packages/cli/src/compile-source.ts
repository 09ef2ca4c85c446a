import { relative } from 'node:path';
import { CompileError, compileConnector } from '@platform/compile';
import { UsageError } from './errors.ts';

/**
 * `connector.ts` compiled by @platform/compile (the server builds its demo connectors with it too). A source that
 * does not compile is the developer's to fix: a usage error naming the file, line and column.
 */
export const compileSource = async (
  entry: string,
  options: { strictImports?: boolean } = {},
): Promise<string> => {
  try {
    return await compileConnector(entry, options);
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    const where = error.location
      ? `${relative(process.cwd(), error.location.file) || error.location.file}:${error.location.line}:${error.location.column}`
      : entry;
    const again = options.strictImports ? 'run the command again' : 'publish again';
    throw new UsageError(`${where}: ${error.message}; fix the connector source and ${again}`);
  }
};
