import { dirname, relative, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { UsageError } from './errors.ts';

type EsbuildMessage = { text: string; location?: { file: string; line: number; column: number } | null };

/** The SDK package: types only, so an import of it must vanish from the bundle. */
export const SDK_PACKAGE = '@chili-publish/studio-connectors';

/**
 * `connector-cli build`'s rule (docs/connector-cli.md): a connector imports relative files and the SDK's types,
 * nothing else, so the module the platform runs is exactly the project's own code.
 */
const onlyRelativeImports: Plugin = {
  name: 'only-relative-imports',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path === SDK_PACKAGE
        ? { path: args.path, external: true }
        : {
            errors: [
              {
                text: `imports "${args.path}": a connector may import only relative files and ${SDK_PACKAGE} (types)`,
              },
            ],
          },
    );
  },
};

/**
 * Compiles a connector's TypeScript entry (`connector.ts`) into the one ES module the platform runs: bundled, so
 * packages it imports are inlined, for browsers, ES2020. Imports used only as types (the connector SDK's) vanish,
 * so a project compiles without its node_modules. No type check: that is the developer's `tsc`.
 */
export const compileConnector = async (
  entry: string,
  options: { strictImports?: boolean } = {},
): Promise<string> => {
  const { build } = await import('esbuild');
  try {
    const result = await build({
      ...(options.strictImports ? { plugins: [onlyRelativeImports] } : {}),
      entryPoints: [resolve(entry)],
      // esbuild wants an absolute directory: `publish my-conn/connector.ts` names it relative to where it runs.
      absWorkingDir: dirname(resolve(entry)),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2020',
      write: false,
      logLevel: 'silent',
    });
    const text = result.outputFiles[0]?.text ?? '';
    if (options.strictImports && new RegExp(`from\\s*["']${SDK_PACKAGE}["']`).test(text)) {
      throw new UsageError(
        `${relative(process.cwd(), entry) || entry}: ${SDK_PACKAGE} is imported as a value, but it has types only; write import type`,
      );
    }
    return text;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const [first] = (error as { errors?: EsbuildMessage[] }).errors ?? [];
    const where = first?.location
      ? `${relative(process.cwd(), first.location.file) || first.location.file}:${first.location.line}:${first.location.column + 1}`
      : entry;
    const what = first?.text ?? (error instanceof Error ? error.message : String(error));
    const again = options.strictImports ? 'run the command again' : 'publish again';
    throw new UsageError(`${where}: ${what}; fix the connector source and ${again}`);
  }
};
