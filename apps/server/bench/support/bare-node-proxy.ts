import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export type BareNodeProxy = { url: string; stop(): Promise<void> };

const script = fileURLToPath(new URL('./bare-node-proxy.mjs', import.meta.url));

/**
 * Node's http server and an undici Pool with nothing of the platform's (bare-node-proxy.mjs), in a process of its own
 * like nginx and the platform: what any Node proxy costs on this machine before it does anything of its own.
 */
export const startBareNodeProxy = async (
  upstream: string,
  header: { name: string; value: string },
): Promise<BareNodeProxy> => {
  const child = spawn(process.execPath, [script, upstream, header.name, header.value], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([
    once(child.stdout, 'data'),
    exited.then(() => {
      throw new Error('the bare Node proxy exited before it listened');
    }),
  ])) as [Buffer];
  return {
    url: String(line).trim(),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
};
