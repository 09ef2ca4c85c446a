import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildPrograms } from '../../../../tools/build-for-tests.ts';

/**
 * The suite tests the current sources: the server's program (its bin runs dist/) and the console build it serves
 * are made first (a few seconds).
 */
export default async () => {
  buildPrograms(new URL('../../../server/', import.meta.url))();
  await build({ root: fileURLToPath(new URL('../..', import.meta.url)), logLevel: 'warn' });
};
