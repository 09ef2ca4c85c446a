/**
 * Publish and republish validation: the script must load as an ES module whose default export is a class. Loading
 * runs the module's top level and the constructor under the host's limits, with no way out (its fetches are
 * refused), and within `LOAD_TIME_LIMIT_MS` at most: a script that loops while it loads does not load, and is
 * refused as such (SCRIPT_INVALID) rather than holding a runtime worker for a whole invocation's time.
 */
import { RuntimeError } from './errors.ts';
import { defaultLimits, type RuntimeLimits } from './limits.ts';
import { loadConnector } from './sandbox.ts';

/** Loading a module and building its class takes milliseconds; a script still at it after this never will. */
const LOAD_TIME_LIMIT_MS = 5_000;

export const checkScript = async (
  script: string,
  limits: Partial<RuntimeLimits> = {},
  onRun?: (running: boolean) => void,
): Promise<void> => {
  const timeoutMs = Math.min(limits.timeoutMs ?? defaultLimits.timeoutMs, LOAD_TIME_LIMIT_MS);
  try {
    const sandbox = await loadConnector({
      script,
      options: {},
      platform: 'server',
      fetch: () => Promise.reject(new RuntimeError('FETCH_REFUSED', 'no fetch while a script is checked')),
      limits: { ...limits, timeoutMs },
      onRun,
    });
    sandbox.dispose();
  } catch (error) {
    if (error instanceof RuntimeError && error.code === 'TIME_LIMIT') {
      throw new RuntimeError(
        'SCRIPT_INVALID',
        `the script does not load: its top level or its constructor still ran after ${timeoutMs / 1000} s`,
      );
    }
    throw error;
  }
};
