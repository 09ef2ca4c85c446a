/**
 * What the transports accept (docs/errors.md): U+0000 and unpaired surrogates refused with 400 naming the field
 * wherever they arrive (JSON escapes, percent-encoded paths and queries, tRPC input, a token's subject → 401),
 * request bodies decoded from gzip, deflate and br under the same limit, other encodings 415, undecodable 400.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { SUB_A, USERS } from '../support/fixture.ts';
import { contractViolations, MiB, type RawReply, sendRaw } from '../support/raw-http.ts';
import { seededPlatform } from '../support/seeded.ts';

const backends = await testBackends();
const ENV = '/grafx/api/v1/environment/acme-prod';
const DOMAINS = `/api/v1/subscriptions/${SUB_A}/external-idp-domains`;

const errorsOf = (reply: RawReply | undefined) => {
  expect(reply).toBeDefined();
  expect(contractViolations(reply!)).toEqual([]);
  return (JSON.parse(reply!.body.toString('utf8')) as { errors?: Record<string, string[]> }).errors ?? {};
};

describe.each(backends)('transport input on $name', (backend) => {
  const s = seededPlatform(backend);
  const send = async (
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
  ) => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    return sendRaw(s.tp.url, {
      method,
      path,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body }),
    });
  };

  it('refuses U+0000 and lone surrogates sent as JSON escapes, naming the field (keys and nested fields too)', async () => {
    const connector = (extra: string) =>
      `{"name":"c","version":"1.0.0","type":"data","script":"x","allowedDomains":["example.com"]${extra}}`;
    const description = await send('POST', `${ENV}/connectors`, connector(',"description":"a\\u0000b"'));
    expect(description?.status).toBe(400);
    expect(errorsOf(description)).toHaveProperty('description');

    const option = await send('POST', `${ENV}/connectors`, connector(',"options":{"k\\ud800":"v"}'));
    expect(option?.status).toBe(400);
    expect(Object.keys(errorsOf(option))).toEqual(['options.k\ud800']);

    const tag = await send('POST', `${ENV}/tags`, '{"name":"\\udc00x"}');
    expect(tag?.status).toBe(400);
    expect(errorsOf(tag)).toHaveProperty('name');

    const domains = await send('PUT', DOMAINS, '["ok.example","\\u0000.example"]');
    expect(domains?.status).toBe(400);
    expect(errorsOf(domains)).toHaveProperty(['body[1]']);

    const pair = await send('POST', `${ENV}/tags`, '{"name":"emoji \\ud83d\\ude00"}');
    expect(pair?.status).toBe(201);
  });

  it('refuses a JSON body whose bytes are not UTF-8 (a stray byte, an overlong form, an encoded surrogate), small or streamed', async () => {
    for (const bytes of ['ff', 'c0af', 'eda080']) {
      const body = Buffer.concat([
        Buffer.from('{"name":"bad'),
        Buffer.from(bytes, 'hex'),
        Buffer.from('name"}'),
      ]);
      const tag = await send('POST', `${ENV}/tags`, body);
      expect(tag?.status).toBe(400);
      expect(errorsOf(tag)).toEqual({ body: ['not valid UTF-8'] });
    }
    // Past 64 KiB a body is parsed as it streams: a sequence cut across two chunks is still whole, a bad one refused.
    const long = (middle: Buffer) =>
      Buffer.concat([
        Buffer.from('{"name":"x","padding":"'),
        Buffer.alloc(100_000, 'a'),
        middle,
        Buffer.from('"}'),
      ]);
    const valid = await send('POST', `${ENV}/tags`, long(Buffer.from('\u00e9\u4e2d\u{1f600}')));
    expect([valid?.status, errorsOf(valid)]).toEqual([400, { padding: expect.anything() }]);
    const invalid = await send('POST', `${ENV}/tags`, long(Buffer.from('ff', 'hex')));
    expect([invalid?.status, errorsOf(invalid)]).toEqual([400, { body: ['not valid UTF-8'] }]);
    const tags = await send('GET', `${ENV}/tags`);
    expect(tags?.body.toString()).not.toContain('\ufffd');
  });

  it('refuses them in queries and paths, percent-encoded, with or without a token', async () => {
    const query = await send('GET', '/api/v1/environments?environmentName=a%00');
    expect(query?.status).toBe(400);
    expect(errorsOf(query)).toHaveProperty('environmentName');

    const surrogate = await send('GET', `${ENV}/templates?search=%ED%A0%80`);
    expect(surrogate?.status).toBe(400);
    expect(errorsOf(surrogate)).toHaveProperty('search');

    const invalid = await send('GET', `${ENV}/templates?search=%FF`);
    expect(invalid?.status).toBe(400);
    expect(errorsOf(invalid)).toHaveProperty('search');

    const path = await send('GET', '/grafx/api/v1/environment/acme%00/tags');
    expect(path?.status).toBe(400);
    expect(errorsOf(path)).toHaveProperty('environment');

    // The authorization-code callback needs no token.
    const redirect = await sendRaw(s.tp.url, {
      method: 'GET',
      path: `/grafx/api/v1/environment/a%00/connectors/00000000-0000-4000-8000-000000000000/auth/oauth-authorization-code/redirect?state=%00`,
    });
    expect(redirect?.status).toBe(400);
    expect(Object.keys(errorsOf(redirect)).sort()).toEqual(['environment', 'state']);
  });

  it('refuses them in tRPC input, JSON-escaped or percent-encoded, and a token whose subject holds them with 401', async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const mutation = await sendRaw(s.tp.url, {
      method: 'POST',
      path: '/trpc/tags.create',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"environment":"acme-prod","body":{"name":"\\u0000"}}',
    });
    expect(mutation?.status).toBe(400);
    expect(JSON.parse(mutation!.body.toString()).error.data.errors).toHaveProperty('name');
    const query = await sendRaw(s.tp.url, {
      method: 'GET',
      path: `/trpc/environments.list?input=${encodeURIComponent('{"environmentName":"\\ud800"}')}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(query?.status).toBe(400);
    // Percent-escapes that are not UTF-8 (an encoded lone surrogate, a stray byte) are refused by name, as in REST,
    // never read as U+FFFD.
    for (const encoded of ['%ED%A0%80', '%FF']) {
      const undecodable = await sendRaw(s.tp.url, {
        method: 'GET',
        path: `/trpc/environments.list?input=%7B%22environmentName%22%3A%22${encoded}%22%7D`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(undecodable?.status).toBe(400);
      expect(JSON.parse(undecodable!.body.toString()).error.data.errors).toHaveProperty('input');
      expect(contractViolations(undecodable!)).toEqual([]);
    }
    // Text that is not JSON is named too, in words of the platform's (not the JSON parser's).
    const notJson = await sendRaw(s.tp.url, {
      method: 'GET',
      path: '/trpc/environments.list?input=notjson',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(notJson?.status).toBe(400);
    expect(JSON.parse(notJson!.body.toString()).error).toMatchObject({
      message: 'The query parameter input is not valid JSON.',
      data: { errors: { input: ['not valid JSON'] } },
    });

    for (const sub of ['auth0|a\u0000', 'auth0|\ud800']) {
      const bad = await s.tp.issuer.sign({ sub, roles: ['platform:read'] });
      const reply = await sendRaw(s.tp.url, {
        method: 'GET',
        path: '/api/v1/subscriptions',
        headers: { authorization: `Bearer ${bad}` },
      });
      expect(reply?.status).toBe(401);
      expect(contractViolations(reply!)).toEqual([]);
    }
  });

  it('decodes gzip, deflate and br bodies; refuses other encodings (415) and undecodable data (400)', async () => {
    for (const [coding, compress] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
      ['GZIP', gzipSync],
    ] as const) {
      const domain = `${coding.toLowerCase()}.example`;
      const reply = await send('PUT', DOMAINS, compress(Buffer.from(JSON.stringify([domain]))), {
        'content-encoding': coding,
      });
      expect(reply?.status, coding).toBe(200);
      const stored = await send('GET', DOMAINS);
      expect(JSON.parse(stored!.body.toString()), coding).toEqual([domain]);
    }
    const body = Buffer.from('["coded.example"]');
    for (const coding of ['compress', 'zstd', 'gzip, br']) {
      const reply = await send('PUT', DOMAINS, gzipSync(body), { 'content-encoding': coding });
      expect(reply?.status, coding).toBe(415);
      expect(contractViolations(reply!)).toEqual([]);
    }
    for (const coding of ['gzip', 'deflate', 'br']) {
      const reply = await send('PUT', DOMAINS, Buffer.from('not compressed at all'), {
        'content-encoding': coding,
      });
      expect(reply?.status, coding).toBe(400);
      expect(errorsOf(reply)).toHaveProperty('body');
    }
  });

  it("takes through tRPC the bodies its REST twin takes: a 3 MiB template by templates.create, 413 only past the template's limit", async () => {
    const token = await s.tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const create = (content: unknown, batch = false) =>
      sendRaw(s.tp.url, {
        method: 'POST',
        path: batch ? '/trpc/templates.create,tags.create?batch=1' : '/trpc/templates.create',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(
          batch
            ? {
                0: { environment: 'acme-prod', body: { name: 'Large, batched', content } },
                1: { environment: 'acme-prod', body: { name: 'beside-a-large-template' } },
              }
            : { environment: 'acme-prod', body: { name: 'Large by tRPC', content } },
        ),
      });
    // Three MiB of text in a few values: over the 1 MiB of an operation without a limit of its own, under 5 MiB.
    const large = { pages: Array.from({ length: 3 }, (_, i) => ({ id: i, text: 'x'.repeat(MiB) })) };
    const reply = await create(large);
    expect(reply?.status, reply?.body.toString().slice(0, 300)).toBe(200);
    const batched = await create(large, true);
    expect(batched?.status, batched?.body.toString().slice(0, 300)).toBe(200);
    const over = await create({ text: 'x'.repeat(6 * MiB) });
    expect(over?.status).toBe(413);
  });

  it('counts the limit after decoding: a compressed bomb is 413, never held in memory', async () => {
    // JSON whitespace: valid as far as it goes, so only the limit stops it.
    const bomb = gzipSync(Buffer.alloc(128 * MiB, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(MiB);
    const before = process.memoryUsage().rss;
    const reply = await send('PUT', DOMAINS, bomb, { 'content-encoding': 'gzip' });
    expect(reply?.status).toBe(413);
    expect(contractViolations(reply!)).toEqual([]);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
  });

  it('answers 413 for a body over the limit that is not JSON either, however it is framed; 400 under it', async () => {
    const zeros = gzipSync(Buffer.alloc(16 * MiB, 0), { level: 9 });
    const garbage = Buffer.alloc(2 * MiB, 'a');
    const overs: [string, Buffer, Record<string, string>][] = [
      ['a gzip bomb of zero bytes', zeros, { 'content-encoding': 'gzip' }],
      ['chunked text', garbage, { 'transfer-encoding': 'chunked' }],
      ['a declared length', garbage, {}],
    ];
    for (const [name, body, headers] of overs) {
      const reply = await send('PUT', DOMAINS, body, headers);
      expect(reply?.status, name).toBe(413);
      expect(contractViolations(reply!)).toEqual([]);
    }
    // Under the limit, text that is not JSON stays a 400, streamed or not.
    const framings: Record<string, string>[] = [
      { 'transfer-encoding': 'chunked' },
      { 'content-encoding': 'gzip' },
    ];
    for (const headers of framings) {
      const small = Buffer.alloc(512 * 1024, 'a');
      const body = 'content-encoding' in headers ? gzipSync(small) : small;
      const reply = await send('PUT', DOMAINS, body, headers);
      expect(reply?.status).toBe(400);
      expect(errorsOf(reply)).toEqual({ body: ['not valid JSON'] });
    }
  });
});
