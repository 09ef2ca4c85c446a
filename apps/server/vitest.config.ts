import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // `@platform/client` publishes built files; tests here use its sources, as tsc does (condition @platform/source).
    alias: {
      '@platform/client': fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url)),
    },
  },
  test: {
    // Files share their worker's modules (no fresh import of the whole graph per file: a sixth of the suite's time).
    // Each file starts and closes its own servers and databases, and none mocks a module.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/support/build-programs.ts'],
  },
});
