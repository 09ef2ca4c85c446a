/**
 * 8 KB of gzip must not buy a minute of the server (issue: fail closed, points 2 and 13): a body's values and depth
 * are bounded inside the streaming parse, decoded bytes are budgeted per caller, and numbers JavaScript cannot keep
 * are refused by path rather than stored as `null` or rounded.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { seededPlatform } from '../support/seeded.ts';

const backends = await testBackends();
const TEMPLATES = '/grafx/api/v1/environment/acme-prod/templates';

/** 655,000 `{"a":1}` objects: 5 MiB of JSON, 7.7 KB of gzip. */
const manySmallNodes = gzipSync(`{"name":"many","content":[${Array(655_000).fill('{"a":1}').join(',')}]}`, {
  level: 9,
});

type Problem = { errors?: Record<string, string[]> };

describe.each(backends)('the work a request body can cause on $name', (backend) => {
  // The rate limit (and with it the body budget) on, as in production.
  const s = seededPlatform(backend, { RATE_LIMIT_PER_SECOND: '100000' });

  const post = async (user: string, body: string | Buffer, encoding?: string) => {
    const token = await s.tp.token(user, ['platform:read', 'platform:write']);
    const response = await s.tp.call(TEMPLATES, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Problem };
  };

  it('refuses a document of many small values with 413 naming the limit', async () => {
    expect(manySmallNodes.length).toBeLessThan(8_000);
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => post(USERS.owner, manySmallNodes, 'gzip')),
    );
    for (const reply of replies) {
      expect(reply.status).toBe(413);
      expect(reply.body.errors?.body?.[0]).toMatch(/more than 200000 JSON values/);
    }
  });

  it('stops at the value limit inside the parse: the answer comes while the body is still being sent', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const text = `{"name":"many","content":[${Array(655_000).fill('{"a":1}').join(',')}]}`;
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${s.tp.url}${TEMPLATES}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // 64 KiB at a time, waiting for each to drain and for the server's turn: 80 writes in all.
      const next = () => {
        if (sent >= text.length) return req.end();
        const chunk = text.slice(sent, sent + 64 * 1024);
        sent += chunk.length;
        if (req.write(chunk)) setTimeout(next, 5);
        else req.once('drain', () => setTimeout(next, 5));
      };
      next();
    });
    expect(status).toBe(413);
    // 200,000 values are some 470 KB of this text: the answer came long before its 5 MiB were sent.
    expect(sent).toBeLessThan(text.length / 2);
  });

  it('refuses nesting past 512 levels inside the streaming parse, naming the field', async () => {
    const deep = `{"name":"deep","content":[${'"x",'.repeat(30_000)}${'['.repeat(600)}${']'.repeat(600)}]}`;
    const reply = await post(USERS.owner, deep);
    expect(reply.status).toBe(400);
    expect(Object.keys(reply.body.errors ?? {})).toEqual(['content']);
  });

  it('refuses numbers JavaScript cannot keep by path, in small and streamed bodies alike', async () => {
    const padding = `"pad":"${'p'.repeat(70_000)}"`;
    for (const [number, path] of [
      ['1e400', 'content.x'],
      ['-1e400', 'content.x'],
      ['1e-400', 'content.x'],
      ['12345678901234567890', 'content.x'],
      ['9007199254740993', 'content.x'],
    ]) {
      for (const body of [
        `{"name":"n","content":{"x":${number}}}`,
        `{"name":"n","content":{${padding},"x":${number}}}`,
      ]) {
        const reply = await post(USERS.owner, body);
        expect(reply.status, `${number} in ${body.length} bytes`).toBe(400);
        expect(Object.keys(reply.body.errors ?? {}), number).toEqual([path]);
      }
    }
    const items = `{"name":"n","content":{"list":[1,2,1e999]}}`;
    expect(Object.keys((await post(USERS.owner, items)).body.errors ?? {})).toEqual(['content.list[2]']);
  });

  it('keeps the numbers JavaScript can keep exactly as they were', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const content =
      '{"max":9007199254740991,"min":-9007199254740991,"e":1.5e300,"tiny":5e-324,"zero":0e5,"f":0.1}';
    const created = await s.tp.call(TEMPLATES, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: `{"name":"exact","content":${content}}`,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const stored = await (await s.tp.call(`${TEMPLATES}/${id}/download`, { token })).text();
    expect(JSON.parse(stored)).toEqual(JSON.parse(content));
    expect(stored).toContain('9007199254740991');
  });

  it("budgets each caller's decoded bytes: past 32 MiB it is 429 with Retry-After, and another caller goes on", async () => {
    const fourMiB = JSON.stringify({ name: 'big', content: 'x'.repeat(4 * 1024 * 1024) });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 12 && !limited; i++) {
      const reply = await post(USERS.admin, fourMiB);
      statuses.push(reply.status);
      if (reply.status === 429) limited = reply;
    }
    expect(statuses.slice(0, 7).every((status) => status === 201)).toBe(true);
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post(USERS.envAdmin, fourMiB)).status).toBe(201);
  });
});
