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
