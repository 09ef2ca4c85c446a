import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Listening = { server: Server; url: string; port: number; close(): Promise<void> };

/** A node:http server on a free loopback port. */
export const listen = async (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Listening> => {
  const server = createServer(handler);
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
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

export type Recorded = { method: string; path: string; headers: IncomingMessage['headers']; body: string };

export type Target = Listening & {
  requests: Recorded[];
  /** Per path: a status to answer instead of 200 (then 200 again once the count runs out). */
  refusals: Map<string, number>;
  /** The last request received on `path`. */
  last(path: string): Recorded | undefined;
};

/** The external API a connector calls: records every request, answers a small JSON echo. */
export const startTarget = async (): Promise<Target> => {
  const requests: Recorded[] = [];
  const refusals = new Map<string, number>();
  const listening = await listen(async (req, res) => {
    const recorded: Recorded = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: (await readBody(req)).toString('utf8'),
    };
    requests.push(recorded);
    const left = refusals.get(recorded.path) ?? 0;
    if (left > 0) {
      refusals.set(recorded.path, left - 1);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"refused"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: recorded.method, path: recorded.path, bytes: recorded.body.length }));
  });
  return {
    ...listening,
    requests,
    refusals,
    last: (path) => requests.filter((r) => r.path === path).at(-1),
  };
};

export type TokenServer = Listening & {
  /** Every token request: its content type and raw body. */
  requests: { contentType: string; authorization: string | undefined; body: string }[];
  /** Access tokens handed out, in order. */
  issued: string[];
  /** Milliseconds to wait before answering, so concurrent callers really overlap. */
  delayMs: number;
};

/**
 * A token endpoint written by hand that reads form or JSON bodies (the `applicationJson` body format of the
 * resource owner password type) and answers a standard access token response.
 */
export const startTokenServer = async (): Promise<TokenServer> => {
  const state = {
    requests: [] as TokenServer['requests'],
    issued: [] as string[],
    delayMs: 0,
  };
  const listening = await listen(async (req, res) => {
    const body = (await readBody(req)).toString('utf8');
    state.requests.push({
      contentType: String(req.headers['content-type'] ?? ''),
      authorization: req.headers.authorization,
      body,
    });
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const token = `json-endpoint-access-token-${state.issued.length + 1}-${Math.random().toString(36).slice(2)}`;
    state.issued.push(token);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
  });
  return Object.assign(state, listening);
};
