import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A vitest globalSetup for test suites that start a bin as a child process: the bins run `dist/`, so the
 * packages they run are bundled from the current sources before any test starts (an old build would test old code).
 * Each package's own `build` script runs, so its extra entries (the server's runtime worker) are built as in CI.
 */
export const buildPrograms =
  (...packageDirs: URL[]) =>
  (): void => {
    // `npm test` (tools/test-all.mjs) builds them once before its two lanes run side by side, so that no suite
    // rebuilds a bin while another suite runs or packs it.
    if (process.env.TEST_PROGRAMS_BUILT === '1') return;
    for (const dir of packageDirs) {
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: fileURLToPath(dir), stdio: 'inherit' });
    }
  };
