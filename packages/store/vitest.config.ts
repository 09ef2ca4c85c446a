import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test opens a database of its own (PGlite boot or a PostgreSQL clone): allow for it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
