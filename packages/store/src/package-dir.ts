import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * This package's folder, found through the package itself rather than beside this file: a program's bundle
 * (dist/main.js) holds this code elsewhere, while the migrations and the database template stay in the package.
 */
export const storePackageDir = dirname(require.resolve('@platform/store/package.json'));

/** The installed PGlite's version: a database template made by another version is not used. */
export const pgliteVersion = (): string => {
  // The package exports no package.json; its entry lives in its dist/ folder, beside which the manifest sits.
  const entry = require.resolve('@electric-sql/pglite');
  const manifest = require(`${dirname(dirname(entry))}/package.json`) as { version: string };
  return manifest.version;
};
