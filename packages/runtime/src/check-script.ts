/**
 * Publish and republish validation: the script must load as an ES module whose default export is a class. Loading
 * runs the module's top level under the default limits, with no way out (its fetches are refused).
 */
import { RuntimeError } from './errors.ts';
import { loadConnector } from './sandbox.ts';

export const checkScript = async (script: string): Promise<void> => {
  const sandbox = await loadConnector({
    script,
    options: {},
    platform: 'server',
    fetch: () => Promise.reject(new RuntimeError('FETCH_REFUSED', 'no fetch while a script is checked')),
  });
  sandbox.dispose();
};
