import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every suite opens databases (PGlite boot or a PostgreSQL clone) and real servers on loopback.
    // Files share their worker's modules: each used to import the whole graph again (13 s of the suite's imports, now 5).
    // Each file starts and closes its own servers and databases, and none mocks a module.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
