/**
 * Every failure the fuzz suite found, pinned as a plain request: each answered a 5xx or a bare, non-ProblemDetails
 * error before its fix.
 */
import { connect } from 'node:net';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { contractViolations, type RawReply, sendRaw } from '../support/raw-http.ts';
import { seededPlatform } from '../support/seeded.ts';

const [backend] = await testBackends();

/** Writes `bytes` on a fresh connection and parses the one response that comes back. */
const rawExchange = (url: string, bytes: string): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.from(rest.join('\r\n\r\n')),
        truncated: false,
      });
    });
    socket.end(bytes);
  });

describe('fuzz regressions', () => {
  const s = seededPlatform(backend!);

  it('names unknown body fields called constructor or __proto__ in a 400 (was 500: list.push is not a function)', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    for (const key of ['constructor', '__proto__', 'toString']) {
      const reply = await sendRaw(s.tp.url, {
        method: 'POST',
        path: '/grafx/api/v1/environment/acme-prod/tags',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `{"name":"t-${key}","${key}":"x"}`,
      });
      expect(reply!.status, key).toBe(400);
      expect(contractViolations(reply!)).toEqual([]);
      expect(Object.keys(JSON.parse(reply!.body.toString()).errors)).toContain(key);
    }
  });

  it('answers a path parameter with malformed percent-encoding with 400 (was 500: Failed to decode param)', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read']);
    for (const path of [
      '/api/v1/subscriptions/%c0%ae%c0%ae',
      '/api/v1/environments/%ff/renders?groupBy=year',
      '/grafx/api/v1/environment/%ed%a0%80/connectors',
    ]) {
      const reply = await sendRaw(s.tp.url, {
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(reply!.status, path).toBe(400);
      expect(contractViolations(reply!)).toEqual([]);
    }
  });

  it('answers requests the HTTP parser rejects with a ProblemDetails (was a bare 400/431 without a body)', async () => {
    const garbage = await rawExchange(s.tp.url, '{"a":1}\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(contractViolations(garbage)).toEqual([]);

    const framing = await rawExchange(
      s.tp.url,
      'POST /api/v1/render-events HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    );
    expect(framing.status).toBe(400);
    expect(contractViolations(framing)).toEqual([]);

    const huge = await rawExchange(
      s.tp.url,
      `GET /api/v1/info HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge.status).toBe(431);
    expect(contractViolations(huge)).toEqual([]);
  });

  it('names a header whose value holds U+0000 or another control character, though the HTTP parser refuses it', async () => {
    for (const [name, value, character] of [
      ['Authorization', 'Bearer a\0b', 'U+0000 (NUL)'],
      ['traceparent', '00-\0', 'U+0000 (NUL)'],
      ['X-Custom', 'bell\x07', 'the control character U+0007'],
    ] as const) {
      const reply = await rawExchange(
        s.tp.url,
        `GET /api/v1/info HTTP/1.1\r\nHost: x\r\n${name}: ${value}\r\n\r\n`,
      );
      expect(reply.status, name).toBe(400);
      expect(contractViolations(reply)).toEqual([]);
      const problem = JSON.parse(reply.body.toString()) as {
        detail: string;
        errors: Record<string, string[]>;
      };
      expect(problem.errors).toEqual({ [name]: [`contains ${character}`] });
      expect(problem.detail).toBe(
        `The header ${name} contains ${character}, which no header value may hold; remove it.`,
      );
    }
  });

  it('answers an environment reference holding U+0000 with 400 naming it (was 500: invalid byte sequence for UTF8)', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    for (const method of ['GET', 'DELETE']) {
      const reply = await sendRaw(s.tp.url, {
        method,
        path: '/grafx/api/v1/environment/a%00b/connectors/00000000-0000-4000-8000-000000000000',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(reply!.status, method).toBe(400);
      expect(contractViolations(reply!)).toEqual([]);
      expect(JSON.parse(reply!.body.toString()).errors).toHaveProperty('environment');
    }
  });
});
