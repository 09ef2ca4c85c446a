import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every test starts the bin as a child process (tsx compiles it on start): seconds, not milliseconds.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
