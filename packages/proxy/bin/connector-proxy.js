#!/usr/bin/env node
// Runs the bundle the package's build writes (`npm ci` builds it): no TypeScript is compiled at start.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(`${main.pathname} is missing: run \`npm run build\` in the repository first.\n`);
  process.exit(1);
}
await import(main.href);
