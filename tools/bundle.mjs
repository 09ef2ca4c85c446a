#!/usr/bin/env node
/**
 * `node ../../tools/bundle.mjs [entry] [name=entry ...]` (a package's `build` script): bundles the package's program
 * into `dist/main.js` (and each further `name=entry`, such as a worker thread's, into `dist/<name>.js`), so its bin runs JavaScript and never compiles TypeScript at start. Workspace packages
 * (`@platform/*`) export TypeScript source and are compiled into the bundle; npm dependencies stay external and
 * load from node_modules, as the package.json that declares them says.
 */
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@platform/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** Bundles `entry` of the package in `packageDir` into `packageDir/dist/main.js` (with a source map). */
export const bundle = async (packageDir, entry = 'src/main.ts', extraEntries = {}) => {
  // Chunk names carry hashes: clear the chunks of an earlier build.
  await rm(join(resolve(packageDir), 'dist'), { recursive: true, force: true });
  await build({
    absWorkingDir: resolve(packageDir),
    entryPoints: { main: entry, ...extraEntries },
    outdir: 'dist',
    bundle: true,
    // Commands loaded with import() become chunks of their own, so a short command loads only what it runs.
    splitting: true,
    // Beside main.js: code that reads files relative to its module (../package.json) finds them as in src/.
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalNpmPackages],
  });
  await bundleForBrowsers(packageDir);
};

/**
 * `"browserBundles": {"name": "src/entry.ts"}` in a package.json: pages a program serves (connector-cli debug) are
 * bundled whole, npm packages included, into `dist/<name>.js` for browsers.
 */
const bundleForBrowsers = async (packageDir) => {
  const pkg = JSON.parse(await readFile(join(resolve(packageDir), 'package.json'), 'utf8'));
  for (const [name, entry] of Object.entries(pkg.browserBundles ?? {})) {
    await build({
      absWorkingDir: resolve(packageDir),
      entryPoints: { [name]: entry },
      outdir: 'dist',
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      conditions: ['@platform/source'],
      // The engine's single-file build imports node's "module" only when it runs in node, never in a browser.
      external: ['module'],
      logLevel: 'warning',
    });
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await bundle(
    process.cwd(),
    process.argv[2],
    Object.fromEntries(process.argv.slice(3).map((pair) => pair.split('=', 2))),
  );
