import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A port the system just handed out as free, for peers whose address must be known before they start (a load
 * balancer's configuration, a PUBLIC_URL shared by replicas). Another process could take it in between: callers
 * that can, retry.
 */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
};
