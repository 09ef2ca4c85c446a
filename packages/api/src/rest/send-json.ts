import type { ServerResponse } from 'node:http';

/**
 * Bodies already serialized, by answer: answers from the read cache are the same objects request after request
 * (and never mutated), so each is serialized once.
 */
const serialized = new WeakMap<object, Buffer>();

/**
 * Sends JSON with `Content-Type: application/json` exactly, as the specification names it: Express would append
 * `; charset=utf-8` to a string body, and JSON is UTF-8 by definition (RFC 8259).
 */
export const sendJson = (res: ServerResponse, value: unknown): void => {
  const shared = typeof value === 'object' && value !== null ? value : undefined;
  let body = shared && serialized.get(shared);
  if (!body) {
    body = Buffer.from(JSON.stringify(value));
    if (shared) serialized.set(shared, body);
  }
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', body.length);
  res.end(body);
};
