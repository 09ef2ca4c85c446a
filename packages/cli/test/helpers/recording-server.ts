import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
};

export type Responder = (request: RecordedRequest, response: ServerResponse) => void;

export type RecordingServer = {
  port: number;
  requests: RecordedRequest[];
  close: () => Promise<void>;
};

const sendJson = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** Answers like the environment API would for the requests the CLI sends (docs/environment-api.md). */
export const platformLikeResponder: Responder = (request, response) => {
  const path = new URL(request.url, 'http://x').pathname;
  const auth = /\/connectors\/([^/]+)\/auth\/([^/]+)$/.exec(path);
  const body = (request.json ?? {}) as Record<string, unknown>;
  if (request.method === 'PUT' && auth) {
    const type = {
      static: 'staticKey',
      'oauth-client-credentials': 'oAuth2ClientCredentials',
      'oauth-authorization-code': 'oAuth2AuthorizationCode',
      'oauth-resource-owner-password': 'oAuth2ResourceOwnerPassword',
      'oauth-jwt-bearer': 'oAuth2JwtBearer',
    }[auth[2] ?? ''];
    sendJson(response, 200, {
      id: '8a4f6c1e-2b1d-4c55-9f0e-1b2c3d4e5f60',
      name: body.name ?? `${type} (${body.usage})`,
      type,
      usage: body.usage,
    });
    return;
  }
  if (request.method === 'POST' && path.endsWith('/connectors')) {
    sendJson(response, 201, { id: '0d9c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', ...body, script: undefined });
    return;
  }
  if (request.method === 'DELETE') {
    response.writeHead(204).end();
    return;
  }
  sendJson(response, 200, { data: [] });
};

/**
 * A plain HTTP server on 127.0.0.1 that records every request it receives: the tests use it to see exactly
 * what the CLI sent, and that it sent nothing when it should not have.
 */
export const startRecordingServer = async (
  responder: Responder = platformLikeResponder,
): Promise<RecordingServer> => {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body === '' ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
      requests.push(recorded);
      responder(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
