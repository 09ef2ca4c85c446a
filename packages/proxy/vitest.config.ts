import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every suite opens databases (PGlite boot or a PostgreSQL clone) and real servers on loopback.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
