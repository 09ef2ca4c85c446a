/**
 * `connector-cli test` and `info` on the SDK's current interface: a test file that calls `upload` (its files given by
 * path, text or base64, sent on by the connector as a StudioFormData to a real loopback API) and `getPageItemById`.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.ts';

type Received = { name: string; type: string; size: number; text: string; folder: string };

const received: Received[] = [];
let api: ReturnType<typeof createServer>;
let base: string;

const read = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  // The DAM's upload endpoint: one multipart form per file, read back by the platform's own parser.
  api = createServer(async (req, res) => {
    const form = await new Response(new Uint8Array(await read(req)), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file') as File;
    received.push({
      name: file.name,
      type: file.type,
      size: file.size,
      text: await file.text(),
      folder: String(form.get('folder')),
    });
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: `m${received.length}`, name: file.name }));
  });
  api.listen(0, '127.0.0.1');
  await once(api, 'listening');
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

const fresh = async (type: 'media' | 'data', connector: string): Promise<string> => {
  const dir = join(tempDir('current-interface-'), 'project');
  const created = await runCli(['new', '--name', `Current ${type}`, '--type', type, '-o', dir]);
  expect(created.code).toBe(0);
  writeFileSync(join(dir, 'connector.ts'), connector);
  return dir;
};

const uploading = (
  capabilities: string,
) => `import type { Connector, Media } from '@chili-publish/studio-connectors';

type FilePointer = { id: string; url: string; name: string };

export default class UploadingConnector implements Media.MediaConnector {
  constructor(private runtime: Connector.ConnectorRuntimeContext) {}
  async query(options: Connector.QueryOptions): Promise<Media.MediaPage> {
    return { pageSize: options.pageSize ?? 0, data: [], links: { nextPage: '' } };
  }
  async detail(id: string): Promise<Media.MediaDetail> {
    return { id, name: id, relativePath: '/', type: 0, metaData: {} };
  }
  async download(): Promise<Connector.ArrayBufferPointer> {
    throw new ConnectorHttpError(404, 'none');
  }
  async upload(files: FilePointer[], context: Connector.Dictionary): Promise<Media.Media[]> {
    const made: Media.Media[] = [];
    for (const file of files) {
      const form = new StudioFormData();
      form.append('file', file);
      form.append('folder', String(context.folder ?? '/'));
      const response = await this.runtime.fetch(this.runtime.options.base + '/media', { method: 'POST', body: form.toJSON() });
      if (!response.ok) throw new ConnectorHttpError(response.status, 'upload failed');
      const stored = JSON.parse(response.text);
      made.push({ id: stored.id, name: stored.name, relativePath: String(context.folder), type: 0, metaData: {} });
    }
    return made;
  }
  getConfigurationOptions() { return null; }
  getCapabilities() { return ${capabilities}; }
}
`;

const rows = `import type { Connector } from '@chili-publish/studio-connectors';

export default class RowsConnector {
  constructor(private runtime: Connector.ConnectorRuntimeContext) {}
  async getPage(config: { limit: number; previousPageToken?: string | null }) {
    return { data: [], continuationToken: null, previousPageToken: config.previousPageToken ?? null };
  }
  async getModel() { return { properties: [{ name: 'sku', type: 'singleLine' }], itemIdPropertyName: 'sku' }; }
  async getPageItemById(id: string, pageOptions: { limit: number }) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/rows/' + id + '?around=' + pageOptions.limit);
    return { data: JSON.parse(response.text), continuationToken: 'next', previousPageToken: null };
  }
  getConfigurationOptions() { return null; }
  getCapabilities() { return { filtering: false, sorting: false, model: true, dataSourceVariable: true }; }
}
`;

const testFile = (dir: string, tests: unknown[]) => {
  const file = join(dir, 'tests.json');
  writeFileSync(file, JSON.stringify({ setup: { runtime_options: { base } }, tests }));
  return file;
};

describe('connector-cli test on the current interface', () => {
  test('runs upload with files by path, text and base64, sent on to the real API as forms', async () => {
    const dir = await fresh(
      'media',
      uploading('{ query: true, detail: true, filtering: false, upload: true }'),
    );
    writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const file = testFile(dir, [
      {
        name: 'upload three files',
        method: 'upload',
        arguments: {
          files: [
            { name: 'logo.svg', contentType: 'image/svg+xml', path: 'logo.svg' },
            { name: 'notes.txt', contentType: 'text/plain', text: 'héllo' },
            { name: 'raw.bin', base64: Buffer.from([1, 2, 3]).toString('base64') },
          ],
          context: { folder: '/brand' },
        },
        asserts: { fetch: [{ url: `${base}/media`, method: 'POST', count: 3 }] },
      },
    ]);
    const result = await runCli(['test', dir, '-t', file]);
    expect(result.stdout).toBe('PASS: upload three files\n');
    expect(result.stderr).toBe('1 of 1 tests passed\n');
    expect(result.code).toBe(0);
    expect(received.slice(-3)).toEqual([
      {
        name: 'logo.svg',
        type: 'image/svg+xml',
        size: 41,
        text: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        folder: '/brand',
      },
      { name: 'notes.txt', type: 'text/plain', size: 6, text: 'héllo', folder: '/brand' },
      {
        name: 'raw.bin',
        type: 'application/octet-stream',
        size: 3,
        text: '\u0001\u0002\u0003',
        folder: '/brand',
      },
    ]);
  });

  test('an upload the capabilities do not allow, or files the test file gets wrong, fail with a reason', async () => {
    const dir = await fresh('media', uploading('{ query: true, detail: true, filtering: false }'));
    const file = testFile(dir, [
      {
        name: 'not allowed',
        method: 'upload',
        arguments: { files: [{ name: 'a.txt', text: 'a' }], context: {} },
      },
      {
        name: 'two sources',
        method: 'upload',
        arguments: { files: [{ name: 'a.txt', text: 'a', base64: 'YQ==' }], context: {} },
      },
      { name: 'no such file', method: 'upload', arguments: { files: [{ name: 'a', path: 'missing.bin' }] } },
    ]);
    const result = await runCli(['test', dir, '-t', file]);
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([
      "FAIL: not allowed: upload: METHOD_MISSING: the connector has no method 'upload': its getCapabilities() does not say upload: true",
      'FAIL: two sources: arguments.files[0]: give exactly one of path, text or base64; fix the test file',
      "FAIL: no such file: the file missing.bin of 'a' does not read; fix its path in the test file",
    ]);
  });

  test('runs getPageItemById, and info lists the methods the platform runs and the SDK version', async () => {
    const dir = await fresh('data', rows);
    const file = testFile(dir, [
      {
        name: 'one row by id',
        method: 'getPageItemById',
        arguments: { id: 'P-7', pageOptions: { limit: 10, sorting: null }, context: {} },
        asserts: {
          fetch: [
            {
              url: `${base}/rows/P-7?around=10`,
              method: 'GET',
              count: 1,
              response: {
                status: 200,
                headers: [['content-type', 'application/json']],
                body: { sku: 'P-7' },
              },
            },
          ],
        },
      },
      {
        name: 'a page back',
        method: 'getPage',
        arguments: { config: { limit: 0, previousPageToken: 'p1' }, context: {} },
      },
    ]);
    const result = await runCli(['test', dir, '-t', file]);
    expect(result.stdout).toBe('PASS: one row by id\nPASS: a page back\n');
    expect(result.code).toBe(0);

    const info = await runCli(['info', dir]);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      type: 'data',
      methods: ['getPage', 'getModel', 'getPageItemById'],
      sdkVersion: '1.47.0-alpha.0',
    });
  });
});
