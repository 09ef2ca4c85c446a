import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test opens a database of its own (PGlite boot or a PostgreSQL clone): allow for it.
    // Files share their worker's modules: each used to import the whole graph again (17 s of the suite's imports, now 4).
    // Each file starts and closes its own servers and databases, and none mocks a module.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
