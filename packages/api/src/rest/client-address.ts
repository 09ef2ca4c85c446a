import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/**
 * The client's address as Express's `req.ip` tells it with `trust proxy` set to TRUSTED_PROXIES (the same library,
 * the same rule): the socket's peer, or, from a trusted load balancer, the address its X-Forwarded-For names.
 * Read once per request by the front door (front-door.ts), for the rate limit and the body budget.
 */
export const clientAddressOf = (
  trustedProxies: readonly string[] | undefined,
): ((req: IncomingMessage) => string | undefined) => {
  if (!trustedProxies?.length) return (req) => req.socket.remoteAddress;
  const trust = proxyAddr.compile([...trustedProxies]);
  return (req) => proxyAddr(req, trust);
};

/**
 * The addresses a request came through, oldest first, ending with the socket's peer, for the `X-Forwarded-For` the
 * connector proxy sends on (`forwardedHeaders`): a caller's own X-Forwarded-For is kept only as far as trusted
 * load balancers (TRUSTED_PROXIES) relayed it, so no caller can put an address of its choosing in front. Undefined
 * without trusted load balancers: the proxy's own default, the peer alone, is the chain then.
 */
export const forwardedChainOf = (
  trustedProxies: readonly string[] | undefined,
): ((req: IncomingMessage) => readonly string[]) | undefined => {
  if (!trustedProxies?.length) return undefined;
  const trust = proxyAddr.compile([...trustedProxies]);
  return (req) => proxyAddr.all(req, trust).reverse();
};
