import { dirname, resolve } from 'node:path';
import type { Message } from 'esbuild';
import { CompileError, type SourceLocation } from './compile-error.ts';
import { onlyRelativeImports, REFUSED_IMPORT } from './only-relative-imports.ts';
import { SDK_PACKAGE, sdkTypesOnly, sdkValueImport } from './sdk-types-only.ts';

export type CompileOptions = {
  /**
   * `connector-cli build` and the platform's demo connectors: only relative imports and the SDK. Without it (a
   * `publish` that compiles `connector.ts` itself), imported npm packages are bundled into the module.
   */
  strictImports?: boolean;
};

/** esbuild's first message as a CompileError; esbuild names files relative to `absWorkingDir`, the entry's folder. */
const toCompileError = (message: Message | undefined, entry: string): CompileError => {
  const location: SourceLocation | undefined = message?.location
    ? {
        file: resolve(dirname(resolve(entry)), message.location.file),
        line: message.location.line,
        column: message.location.column + 1,
      }
    : undefined;
  const text = message?.text ?? 'esbuild failed without a message';
  const valueName = sdkValueImport(text);
  if (valueName !== undefined) {
    return new CompileError(
      'IMPORT_REFUSED',
      `uses "${valueName}" of ${SDK_PACKAGE} as a value, but the SDK has types only; use it in types only`,
      location,
    );
  }
  if (text.includes(REFUSED_IMPORT)) return new CompileError('IMPORT_REFUSED', text, location);
  return new CompileError('SOURCE_INVALID', text, location ?? { file: resolve(entry), line: 1, column: 1 });
};

/**
 * Compiles a connector's TypeScript entry (`connector.ts`) into the one ES module the platform runs: bundled, for
 * browsers, ES2020, the SDK's imports gone (see `sdkTypesOnly`). The project's tsconfig.json is read as esbuild reads
 * it (decorators, class fields), but nothing in it can keep an import in the module. No type check: that is the
 * developer's `tsc`. Throws CompileError.
 */
export const compileConnector = async (entry: string, options: CompileOptions = {}): Promise<string> => {
  const { build } = await import('esbuild');
  let text: string;
  try {
    const result = await build({
      plugins: options.strictImports ? [sdkTypesOnly, onlyRelativeImports] : [sdkTypesOnly],
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
    text = result.outputFiles[0]?.text ?? '';
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (errors === undefined) throw error;
    throw toCompileError(errors[0], entry);
  }
  if (text.trim() === '') {
    throw new CompileError('EMPTY_MODULE', 'compiles to nothing; export the connector class as default', {
      file: resolve(entry),
      line: 1,
      column: 1,
    });
  }
  return text;
};
