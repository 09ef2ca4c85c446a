import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildPrograms } from '../../../../tools/build-for-tests.ts';

/**
 * The suite tests the current sources: the server's program (its bin runs dist/) and the console build it serves
 * are made first (a few seconds). The console is built as `npm run build` builds it: vitest sets NODE_ENV to `test`,
 * which would give React's development build (whose StrictMode runs every effect twice, so every call twice).
 */
export default async () => {
  buildPrograms(new URL('../../../server/', import.meta.url))();
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: fileURLToPath(new URL('../..', import.meta.url)), logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
};
