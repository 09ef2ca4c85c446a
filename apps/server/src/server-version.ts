import { readFileSync } from 'node:fs';

/** `GET /api/v1/info` reports the server package's version (docs/admin-api.md). */
export const serverVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
