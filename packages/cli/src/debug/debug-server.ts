import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostFetch } from '@platform/runtime';
import { UsageError } from '../errors.ts';
import { fromBase64, type RelayRequest, type RelayResponse, toBase64 } from './relay-protocol.ts';

export type DebugProject = {
  name: string;
  type: 'media' | 'data' | undefined;
  options: Record<string, unknown>;
};

export type DebugServerOptions = {
  port: number;
  project: DebugProject;
  /** Compiled afresh for every page load, so a reload shows the latest connector.ts. */
  script: () => Promise<string>;
  relay: HostFetch;
  /** How fetches leave: "this machine" or "the platform proxy of acme-prod". */
  via: string;
  onError: (error: unknown) => void;
};

const page = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title.replace(/[<&"]/g, '')} · connector-cli debug</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
<main id="app"><p>Loading the connector…</p></main>
<script type="module" src="/page.js"></script>
</body>
</html>
`;

const MAX_RELAY_REQUEST = 20 * 1024 * 1024;

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RELAY_REQUEST) req.destroy(new Error('relay request too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * The policy of every answer, as the console's: the page's own scripts and WebAssembly (the runtime) only, pictures
 * from blobs (downloads the page made), fetches to this server only, never framed.
 */
const POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  // The page adds its style sheet as an element.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');

const send = (res: ServerResponse, status: number, type: string, body: string | Uint8Array) => {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': POLICY,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  res.end(body);
};

/**
 * The local server of `connector-cli debug`: the page, its script (the runtime bundled for browsers), the
 * connector's module and project, and the relay its fetches go through. Loopback only, and only for requests
 * addressed to it (`Host` is 127.0.0.1 or localhost with its port; anything else is 421): a name of another site that
 * resolves to 127.0.0.1 (DNS rebinding) gets neither the connector's source nor the relay. The page's origin is the
 * only caller the relay answers (a page of another origin cannot read it, and the Origin check refuses its POST, as
 * it refuses a POST without Origin: another program on this machine).
 */
export const startDebugServer = async (
  options: DebugServerOptions,
): Promise<{ url: string; server: Server }> => {
  const pageScript = new URL('./debug-page.js', import.meta.url);
  const workerScript = new URL('./debug-worker.js', import.meta.url);
  /** The page's own hosts: as the banner prints it, and under the name `localhost`; its origins are theirs. */
  const hosts = new Set<string>();
  const origins = new Set<string>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host === undefined || !hosts.has(req.headers.host.toLowerCase()))
      return send(
        res,
        421,
        'text/plain; charset=utf-8',
        `connector-cli debug answers requests to ${[...hosts].map((host) => `http://${host}/`).join(' or ')} only\n`,
      );
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/')
      return send(res, 200, 'text/html; charset=utf-8', page(options.project.name));
    if (req.method === 'GET' && path === '/page.js')
      return send(res, 200, 'text/javascript; charset=utf-8', await readFile(pageScript));
    if (req.method === 'GET' && path === '/worker.js')
      return send(res, 200, 'text/javascript; charset=utf-8', await readFile(workerScript));
    if (req.method === 'GET' && path === '/connector.js')
      return send(res, 200, 'text/javascript; charset=utf-8', await options.script());
    if (req.method === 'GET' && path === '/project.json')
      return send(res, 200, 'application/json', JSON.stringify({ ...options.project, via: options.via }));
    if (req.method === 'POST' && path === '/relay') {
      // Browsers send Origin with every POST: a request without one is no page's but another program's, which must
      // not get the relay (with --connectorId it carries the developer's token to the platform).
      if (req.headers.origin === undefined || !origins.has(req.headers.origin))
        return send(
          res,
          403,
          'application/json',
          JSON.stringify({ error: 'the relay answers its own page only' }),
        );
      const request = JSON.parse(await readBody(req)) as RelayRequest;
      try {
        const response = await options.relay(
          {
            url: request.url,
            method: request.method,
            headers: request.headers,
            body: request.body === null ? undefined : fromBase64(request.body),
            redirect: request.redirect,
            maxResponseBytes: 50 * 1024 * 1024,
          },
          AbortSignal.timeout(60_000),
        );
        const answer: RelayResponse = { ...response, body: toBase64(response.body) };
        return send(res, 200, 'application/json', JSON.stringify(answer));
      } catch (error) {
        const reason =
          error instanceof Error
            ? error.cause instanceof Error
              ? error.cause.message
              : error.message
            : String(error);
        return send(res, 502, 'application/json', JSON.stringify({ error: reason }));
      }
    }
    send(res, 404, 'text/plain', 'not found');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onError(error);
      if (!res.headersSent)
        send(res, 500, 'text/plain', error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new UsageError(
              `port ${options.port} of 127.0.0.1 ${error.code === 'EADDRINUSE' ? 'is in use' : 'may not be opened'}; pass another with -p, or -p 0 for any free port`,
            )
          : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    hosts.add(host);
    origins.add(`http://${host}`);
  }
  return { url: `http://127.0.0.1:${port}/`, server };
};
