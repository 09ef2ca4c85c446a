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
    // Files share their worker's modules: each used to import the whole graph again (74 s of a server shard's 800).
    // Each file starts and closes its own servers and databases, and none mocks a module.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/support/build-programs.ts'],
  },
});
