import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Built into dist/, which platform-server serves at /console (docs/configuration.md). */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
});
