import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every test starts the bin as a child process, which runs the build made here first.
    globalSetup: ['test/helpers/build-program.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
