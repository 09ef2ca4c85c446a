/**
 * The SDK's current fetch bodies and redirect modes, through a real loopback upstream: a FilePointer's bytes, a
 * StudioFormData (itself or the string its toJSON() gives) as multipart/form-data, `init.redirect` handed to the port.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostFetch, loadConnector, RuntimeError, sdkVersion, type UploadFile } from '../src/index.ts';

type Seen = { method: string; path: string; contentType: string | undefined; body: Buffer };

let server: Server;
let base: string;
const seen: Seen[] = [];

const read = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await read(req);
    seen.push({
      method: req.method ?? '',
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      body,
    });
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/landed' });
      res.end('moved');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The port as the CLI's relay is: the request sent from here, the redirect mode honoured by the platform's fetch. */
const loopback: HostFetch = async (request, signal) => {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body as BodyInit | undefined,
    redirect: request.redirect ?? 'follow',
    signal,
  });
  return {
    status: response.status,
    statusText: response.statusText,
    url: response.url,
    redirected: response.redirected,
    headers: Object.fromEntries(response.headers),
    body: new Uint8Array(await response.arrayBuffer()),
  };
};

const uploader = (
  upload: string,
  capabilities = '{ query: true, detail: true, filtering: false, upload: true }',
) =>
  loadConnector({
    script: `export default class Connector {
      constructor(runtime) { this.runtime = runtime; }
      getCapabilities() { return ${capabilities}; }
      async upload(files, context) { ${upload} }
    }`,
    options: { base },
    platform: 'server',
    fetch: loopback,
  });

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 7]);
const files: UploadFile[] = [
  { name: 'logo.png', contentType: 'image/png', bytes: png },
  { name: 'notes.txt', contentType: 'text/plain', bytes: new TextEncoder().encode('héllo') },
];

/** What the upstream received, read back by the platform's own multipart parser. */
const formOf = (request: Seen) =>
  new Response(new Uint8Array(request.body), {
    headers: { 'content-type': request.contentType ?? '' },
  }).formData();

describe('upload and the FilePointer', () => {
  it("names the SDK version whose interface it implements (the SDK's source, past the 1.14 npm release)", async () => {
    const sandbox = await uploader('return [this.runtime.sdkVersion];');
    expect(sdkVersion).toBe('1.47.0-alpha.0');
    expect(await sandbox.call('upload', [[], {}])).toEqual({ kind: 'json', value: [sdkVersion] });
    sandbox.dispose();
  });

  it('hands the connector FilePointers (instances of the global class) whose bytes stayed on the host', async () => {
    const sandbox = await uploader(`
      return files.map((f) => ({ id: f.id, name: f.name, url: f.url, pointer: f instanceof FilePointer, context }));
    `);
    const result = await sandbox.call('upload', [files, { folder: 'a' }]);
    expect(result.kind).toBe('json');
    const pointers = (result as { value: { id: string; name: string; url: string; pointer: boolean }[] })
      .value;
    expect(pointers.map((p) => [p.name, p.pointer])).toEqual([
      ['logo.png', true],
      ['notes.txt', true],
    ]);
    expect(pointers[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(pointers[0]!.id).not.toBe(pointers[1]!.id);
    expect(JSON.stringify(pointers)).not.toContain('bytes');
    sandbox.dispose();
  });

  it('sends a FilePointer body as its bytes, with its content type unless the connector names one', async () => {
    const sandbox = await uploader(`
      await this.runtime.fetch(this.runtime.options.base + '/raw', { method: 'PUT', body: files[0] });
      await this.runtime.fetch(this.runtime.options.base + '/typed', {
        method: 'PUT', body: files[1], headers: { 'Content-Type': 'application/x-notes' },
      });
      return [];
    `);
    await sandbox.call('upload', [files, {}]);
    const [raw, typed] = seen.slice(-2);
    expect([raw!.method, raw!.path, raw!.contentType]).toEqual(['PUT', '/raw', 'image/png']);
    expect(new Uint8Array(raw!.body)).toEqual(png);
    expect([typed!.contentType, typed!.body.toString('utf8')]).toEqual(['application/x-notes', 'héllo']);
    sandbox.dispose();
  });

  it('sends a StudioFormData as multipart/form-data: string parts, and file parts with their names and types', async () => {
    const sandbox = await uploader(`
      const form = new StudioFormData();
      form.append('folder', '/brand');
      form.append('file', files[0]);
      form.append('file', files[1], 'renamed.txt');
      form.set('folder', '/brand/2026');
      const seen = [];
      form.forEach((value, name) => seen.push(name + '=' + (value instanceof FilePointer ? value.name : value)));
      // A connector that sets the multipart type itself still gets the boundary the body is built with.
      await this.runtime.fetch(this.runtime.options.base + '/form', {
        method: 'POST', body: form, headers: { 'Content-Type': 'multipart/form-data' },
      });
      return { seen, has: form.has('file'), all: form.getAll('file').length, get: form.get('folder'), none: form.get('x') };
    `);
    expect(await sandbox.call('upload', [files, {}])).toEqual({
      kind: 'json',
      value: {
        seen: ['folder=/brand/2026', 'file=logo.png', 'file=notes.txt'],
        has: true,
        all: 2,
        get: '/brand/2026',
        none: null,
      },
    });
    const request = seen.at(-1)!;
    expect(request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formOf(request);
    expect(form.get('folder')).toBe('/brand/2026');
    const parts = form.getAll('file') as File[];
    expect(parts.map((part) => [part.name, part.type])).toEqual([
      ['logo.png', 'image/png'],
      ['renamed.txt', 'text/plain'],
    ]);
    expect(new Uint8Array(await parts[0]!.arrayBuffer())).toEqual(png);
    expect(await parts[1]!.text()).toBe('héllo');
    sandbox.dispose();
  });

  it("sends the string a StudioFormData's toJSON() gives as that form (the GraFx media example's way)", async () => {
    const sandbox = await uploader(`
      return Promise.all(files.map(async (file) => {
        const form = new StudioFormData();
        form.append('file', file);
        const response = await this.runtime.fetch(this.runtime.options.base + '/media?name=' + encodeURIComponent(file.name), {
          method: 'POST', body: form.toJSON(),
        });
        return { id: file.name, status: response.status };
      }));
    `);
    const result = await sandbox.call('upload', [files, {}]);
    expect(result).toEqual({
      kind: 'json',
      value: [
        { id: 'logo.png', status: 200 },
        { id: 'notes.txt', status: 200 },
      ],
    });
    const uploads = seen.filter((request) => request.path.startsWith('/media?name=')).slice(-2);
    const names = await Promise.all(
      uploads.map(async (request) => ((await formOf(request)).get('file') as File).name),
    );
    expect(names.sort()).toEqual(['logo.png', 'notes.txt']);
    sandbox.dispose();
  });

  it('answers a fetch of a FilePointer url itself, and refuses a pointer that is not of this call', async () => {
    const sandbox = await uploader(`
      if (context.keep) { this.kept = files[0]; }
      const own = await this.runtime.fetch(files[1].url);
      let stale = 'none';
      if (context.stale) {
        try { await this.runtime.fetch(this.runtime.options.base + '/stale', { method: 'PUT', body: this.kept }); stale = 'sent'; }
        catch (error) { stale = error.name + ': ' + error.message; }
      }
      return { text: own.text, type: own.headers['content-type'], stale };
    `);
    const before = seen.length;
    expect(await sandbox.call('upload', [files, { keep: true }])).toEqual({
      kind: 'json',
      value: { text: 'héllo', type: 'text/plain', stale: 'none' },
    });
    const later = await sandbox.call('upload', [files.slice(0, 2), { stale: true }]);
    expect(later).toEqual({
      kind: 'json',
      value: {
        text: 'héllo',
        type: 'text/plain',
        stale: 'TypeError: fetch failed: the FilePointer is not one of the files handed to this call',
      },
    });
    expect(seen.length).toBe(before);
    sandbox.dispose();
  });

  it('is a method only of a connector whose capabilities say upload: true', async () => {
    const sandbox = await uploader('return [];', '{ query: true, detail: true, filtering: false }');
    const error = await sandbox.call('upload', [files, {}]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RuntimeError);
    expect(error).toMatchObject({
      code: 'METHOD_MISSING',
      message: "the connector has no method 'upload': its getCapabilities() does not say upload: true",
    });
    sandbox.dispose();
  });
});

describe('getPageItemById', () => {
  const data = (capabilities: string) =>
    loadConnector({
      script: `export default class Connector {
        getCapabilities() { return ${capabilities}; }
        async getPageItemById(id, pageOptions, context) {
          return { data: { id, limit: pageOptions.limit }, continuationToken: 'n', previousPageToken: null, context };
        }
      }`,
      options: {},
      platform: 'server',
      fetch: loopback,
    });

  it('runs with dataSourceVariable: true and is missing without it', async () => {
    const variable = await data(
      '{ filtering: false, sorting: false, model: true, dataSourceVariable: true }',
    );
    expect(await variable.call('getPageItemById', ['r7', { limit: 0, sorting: null }, { a: 1 }])).toEqual({
      kind: 'json',
      value: {
        data: { id: 'r7', limit: 0 },
        continuationToken: 'n',
        previousPageToken: null,
        context: { a: 1 },
      },
    });
    variable.dispose();
    const plain = await data('{ filtering: false, sorting: false, model: true }');
    await expect(plain.call('getPageItemById', ['r7', { limit: 5 }, {}])).rejects.toMatchObject({
      code: 'METHOD_MISSING',
    });
    plain.dispose();
  });
});

describe('init.redirect', () => {
  const fetcher = () =>
    loadConnector({
      script: `export default class Connector {
        constructor(runtime) { this.runtime = runtime; }
        async getModel(context) {
          try {
            const init = context.mode === undefined ? {} : { redirect: context.mode };
            const r = await this.runtime.fetch(this.runtime.options.base + '/moved', init);
            return { status: r.status, redirected: r.redirected, url: r.url.replace(this.runtime.options.base, ''), location: r.headers.location ?? null };
          } catch (error) {
            return { error: error.name + ': ' + error.message };
          }
        }
      }`,
      options: { base },
      platform: 'server',
      fetch: loopback,
    });

  it('follows by default, fails on error, hands back the redirect on manual, and refuses any other mode', async () => {
    const sandbox = await fetcher();
    const run = async (mode?: string) => {
      const result = await sandbox.call('getModel', [mode === undefined ? {} : { mode }]);
      return (result as { value: unknown }).value;
    };
    expect(await run()).toEqual({ status: 200, redirected: true, url: '/landed', location: null });
    expect(await run('follow')).toEqual({ status: 200, redirected: true, url: '/landed', location: null });
    expect(await run('manual')).toEqual({
      status: 302,
      redirected: false,
      url: '/moved',
      location: '/landed',
    });
    expect(await run('error')).toMatchObject({ error: expect.stringMatching(/^TypeError: fetch failed/) });
    expect(await run('sideways')).toEqual({
      error: "TypeError: fetch: redirect must be 'follow', 'error' or 'manual', not 'sideways'",
    });
    sandbox.dispose();
  });
});
