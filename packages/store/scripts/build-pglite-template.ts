import { buildPgliteTemplate } from '../src/pglite-template.ts';

// `npm run build -w @platform/store`: the migrated database template new embedded databases start from.
const outcome = await buildPgliteTemplate();
process.stdout.write(`PGlite template: ${outcome === 'built' ? 'built' : 'already current'}\n`);
