import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** The suite tests the current sources: the build the server serves is made first (about two seconds). */
export default async () => {
  await build({ root: fileURLToPath(new URL('../..', import.meta.url)), logLevel: 'warn' });
};
