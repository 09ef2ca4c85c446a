import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isLoopbackHost } from './target.ts';

export type HttpRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs?: number;
};

export type HttpResponse = { status: number; headers: IncomingHttpHeaders; body: string };

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * RFC 6761 says names under `.localhost` are loopback, but the system resolver often does not know them.
 * Only the connection target changes: the Host header keeps the name, so the server still sees it.
 */
export const loopbackLookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
  if (isLoopbackHost(hostname)) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, (error, address, family) => callback(error, address, family));
};

/** One HTTP exchange with node:http(s); the whole response body is read as text. */
export const send = (req: HttpRequest): Promise<HttpResponse> =>
  new Promise((resolve, reject) => {
    const url = new URL(req.url);
    const requestFn = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const outgoing = requestFn(
      url,
      { method: req.method, headers, lookup: loopbackLookup, timeout: req.timeoutMs ?? 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`no answer within ${req.timeoutMs ?? 30_000} ms`)),
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
