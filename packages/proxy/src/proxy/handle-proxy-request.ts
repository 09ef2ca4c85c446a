import type { IncomingMessage, ServerResponse } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { varyOnProxyHeaders } from './header-filter.ts';
import type { ProxyExchange } from './proxy-exchange.ts';
import { readProxyTarget } from './proxy-headers.ts';
import { readRequestBody } from './request-body.ts';
import { writeProblem } from './write-problem.ts';

export type ProxyRequestContext = {
  /** The environment's database id, already resolved and checked for visibility by the server. */
  environmentId: number;
  connectorId: string;
  caller: { userId: string; roles: ReadonlySet<string> };
  traceId: string;
};

/** The addresses a request came through, oldest first (ForwardedFrom's `chain`). */
export type ForwardedChain = (req: IncomingMessage) => readonly string[];

/** The socket's peer alone: no load balancer is trusted to say who came before it. */
const peerOnly: ForwardedChain = (req) => (req.socket.remoteAddress ? [req.socket.remoteAddress] : []);

/** The HTTP adapter of the proxy exchange: proxy headers in, the target's answer streamed out. */
export const createProxyHandler = (
  exchange: ProxyExchange,
  log: Logger,
  forwardedChain: ForwardedChain = peerOnly,
) => {
  return async (req: IncomingMessage, res: ServerResponse, ctx: ProxyRequestContext): Promise<void> => {
    try {
      const target = readProxyTarget(req);
      // Spelled out, not `...target`: with the spread, 3.3 % of what a proxied request allocated outlived two
      // young-generation collections instead of 1.5 % (--trace-gc-nvp), each collection took a quarter longer, and a
      // proxied request cost 64 µs of CPU instead of 55. Why V8 kept more alive with the spread is not known.
      const response = await exchange(ctx, {
        url: target.url,
        method: target.method,
        usage: target.usage,
        headers: req.headers,
        body: () => readRequestBody(req),
        forwardedFrom: {
          chain: () => forwardedChain(req),
          proto: req.socket instanceof TLSSocket ? 'https' : 'http',
        },
      });
      res.writeHead(response.status, varyOnProxyHeaders(response.headers));
      response.body.forward(res, (reason) =>
        log.debug({ traceId: ctx.traceId, reason }, 'proxied response ended early'),
      );
    } catch (error) {
      // The caller's body may still be arriving; it is not wanted any more.
      if (!req.readableEnded) req.resume();
      writeProblem(res, error, ctx.traceId, log);
    }
  };
};
