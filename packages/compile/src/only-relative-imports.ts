import type { Plugin } from 'esbuild';
import { SDK_PACKAGE } from './sdk-types-only.ts';

/** esbuild's text for an import a connector may not make; `compileConnector` turns it into IMPORT_REFUSED. */
export const REFUSED_IMPORT = 'a connector may import only relative files and';

/**
 * `connector-cli build`'s rule: a connector imports relative files and the SDK's types, nothing else, so the module
 * the platform runs is exactly the project's own code. Registered after `sdkTypesOnly`, which takes the SDK first.
 */
export const onlyRelativeImports: Plugin = {
  name: 'only-relative-imports',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => ({
      errors: [{ text: `imports "${args.path}": ${REFUSED_IMPORT} ${SDK_PACKAGE} (types)` }],
    }));
  },
};
