import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bundler = fileURLToPath(new URL('./bundle.mjs', import.meta.url));

/**
 * A vitest globalSetup for test suites that start a bin as a child process: the bins run `dist/`, so the
 * packages they run are bundled from the current sources before any test starts (an old build would test old code).
 */
export const buildPrograms =
  (...packageDirs: URL[]) =>
  (): void => {
    for (const dir of packageDirs) {
      execFileSync(process.execPath, [bundler], { cwd: fileURLToPath(dir), stdio: 'inherit' });
    }
  };
