import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

/** Built into dist/, which platform-server serves at /console (docs/configuration.md). */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  // Workspace packages from their sources, as TypeScript resolves them (tsconfig customConditions).
  resolve: { conditions: ['@platform/source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  // Try it's sandbox worker imports the runtime as modules do.
  worker: { format: 'es' },
});
