import type { Plugin } from 'esbuild';

/** The connector SDK on npm: declarations only, nothing a connector can run. */
export const SDK_PACKAGE = '@chili-publish/studio-connectors';

/** esbuild's namespace of the SDK's empty module; it appears in esbuild's messages about it. */
export const SDK_NAMESPACE = 'studio-connectors-types';

const escaped = SDK_PACKAGE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Every import of the SDK or one of its subpaths resolves to an empty module, whatever the import's form
 * (`import type`, `import { type X }`, a value import used only in types) and whatever the project's tsconfig.json
 * says: under `verbatimModuleSyntax` TypeScript keeps `import { type X } from ...` as a bare `import "..."`, which
 * then bundles to nothing instead of staying in the module as an import the platform cannot resolve. The module
 * is TypeScript, so names imported from it and used only as types are dropped as TypeScript drops them; a name
 * used as a value has no export to bind to and fails the build (IMPORT_REFUSED).
 */
export const sdkTypesOnly: Plugin = {
  name: 'sdk-types-only',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${escaped}(/.*)?$`) }, (args) => ({
      path: args.path,
      namespace: SDK_NAMESPACE,
    }));
    build.onLoad({ filter: /.*/, namespace: SDK_NAMESPACE }, () => ({
      contents: 'export {};',
      loader: 'ts',
    }));
  },
};

/** esbuild's message for a name the SDK's empty module does not export: the name, or undefined for other messages. */
export const sdkValueImport = (text: string): string | undefined =>
  new RegExp(`^No matching export in "${SDK_NAMESPACE}:[^"]*" for import "([^"]+)"`).exec(text)?.[1];
