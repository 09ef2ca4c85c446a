import { loadConfig } from '../config.ts';
import { setHeapGrowth } from '../heap-growth.ts';

/**
 * `platform-server start`: the configuration is checked before the server's modules load, so a start it refuses
 * says why at once instead of after loading the whole platform (about a second).
 */
export const start = async (): Promise<void> => {
  setHeapGrowth();
  const config = loadConfig();
  return (await import('../serve.ts')).serve(config);
};
