import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Listening = { server: Server; url: string; port: number; close(): Promise<void> };

export const listen = async (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<Listening> => {
  const server = createServer(handler);
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export type Recorded = { method: string; path: string; headers: IncomingMessage['headers']; body: Buffer };

export type Target = Listening & {
  requests: Recorded[];
  /** Per path: answer a request differently (default 200 JSON echo of the method). */
  routes: Map<string, (req: IncomingMessage, res: ServerResponse, recorded: Recorded) => void>;
};

/** A target API on loopback that records everything it receives. */
export const startTarget = async (host = '127.0.0.1'): Promise<Target> => {
  const requests: Recorded[] = [];
  const routes: Target['routes'] = new Map();
  const listening = await listen(async (req, res) => {
    const recorded: Recorded = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: await readBody(req),
    };
    requests.push(recorded);
    const route = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (route) {
      route(req, res, recorded);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'target-answer' });
    res.end(JSON.stringify({ method: recorded.method, bytes: recorded.body.length }));
  }, host);
  return { ...listening, requests, routes };
};
