import type { HostFetch } from '@platform/runtime';
import { fromBase64, type RelayFailure, type RelayResponse, toBase64 } from './relay-protocol.ts';

/** The sandbox's fetch on the debug page: each request goes to the debug server's relay (relay-protocol.ts). */
export const pageRelay: HostFetch = async (request, signal) => {
  const body =
    request.body === undefined
      ? null
      : toBase64(typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body);
  const response = await fetch('/relay', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body,
      redirect: request.redirect,
    }),
    signal,
  });
  const answer = (await response.json()) as RelayResponse | RelayFailure;
  if ('error' in answer) throw new Error(answer.error);
  return { ...answer, body: fromBase64(answer.body) };
};
