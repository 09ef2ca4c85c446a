import type { Response } from 'express';

/**
 * Sends JSON with `Content-Type: application/json` exactly, as the specification names it: Express would append
 * `; charset=utf-8` to a string body, and JSON is UTF-8 by definition (RFC 8259).
 */
export const sendJson = (res: Response, value: unknown): void => {
  const body = Buffer.from(JSON.stringify(value));
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', body.length);
  res.end(body);
};
