import { dirname, relative } from 'node:path';
import { UsageError } from './errors.ts';

type EsbuildMessage = { text: string; location?: { file: string; line: number; column: number } | null };

/**
 * Compiles a connector's TypeScript entry (`connector.ts`) into the one ES module the platform runs: bundled, so
 * packages it imports are inlined, for browsers, ES2020. Imports used only as types (the connector SDK's) vanish,
 * so a project compiles without its node_modules. No type check: that is the developer's `tsc`.
 */
export const compileConnector = async (entry: string): Promise<string> => {
  const { build } = await import('esbuild');
  try {
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: dirname(entry),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2020',
      write: false,
      logLevel: 'silent',
    });
    return result.outputFiles[0]?.text ?? '';
  } catch (error) {
    const [first] = (error as { errors?: EsbuildMessage[] }).errors ?? [];
    const where = first?.location
      ? `${relative(process.cwd(), first.location.file) || first.location.file}:${first.location.line}:${first.location.column + 1}`
      : entry;
    const what = first?.text ?? (error instanceof Error ? error.message : String(error));
    throw new UsageError(`${where}: ${what}; fix the connector source and publish again`);
  }
};
