/**
 * The SDK's current connector interface through the composed server (docs/connector-runtime.md, "Interface"):
 * `media/upload` as multipart/form-data (the files become FilePointers a connector sends on as StudioFormData),
 * `data/item` (getPageItemById), `data/page` backward with `previousPageToken`, and the 400s, 413s and 415 of them.
 */
import { request } from 'node:http';
import { createPlatformClient, createRestClient, isPlatformApiError } from '@platform/client';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectorBody,
  connectorsPath,
  ENVIRONMENT,
  expectStatus,
  platformClient,
} from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen, readBody } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const owner = { user: USERS.owner };
const server = { user: USERS.contentUser, roles: ['platform:read', 'connector:server'] };
const MiB = 1024 * 1024;

/** A DAM that stores what it is sent: each upload a multipart form with one `file`, as the GraFx media API takes. */
const uploadingConnector = (capabilities: string) => `
export default class UploadingConnector {
  constructor(runtime) { this.runtime = runtime; }
  async query(options, context) { return { pageSize: options.pageSize, data: [], links: { nextPage: '' } }; }
  async detail(id, context) { return { id, name: id, relativePath: '/', type: 0, metaData: {} }; }
  async download(id, previewType, intent, context) { throw new ConnectorHttpError(404, 'none'); }
  async upload(files, context) {
    const folder = context.folder ?? '/';
    return Promise.all(files.map(async (file, index) => {
      const form = new StudioFormData();
      form.append('file', file);
      form.append('folder', folder);
      // Half as the GraFx media example sends it (the form's toJSON()), half as the form itself.
      const body = index % 2 === 0 ? form.toJSON() : form;
      const response = await this.runtime.fetch(this.runtime.options.base + '/media', { method: 'POST', body });
      if (!response.ok) throw new ConnectorHttpError(response.status, 'upload failed: ' + response.status);
      const stored = JSON.parse(response.text);
      return { id: stored.id, name: stored.name, relativePath: folder, type: 0, metaData: { bytes: String(stored.bytes) } };
    }));
  }
  getConfigurationOptions() { return null; }
  getCapabilities() { return ${capabilities}; }
}
`;

/** Rows 0 to 9 behind a data source variable: pages both ways, and one row with the tokens around it. */
const variableConnector = (capabilities: string) => `
export default class RowsConnector {
  constructor(runtime) { this.runtime = runtime; }
  async getPage(config, context) {
    if (config.limit < 1) return { data: [], continuationToken: null, previousPageToken: null };
    let start = 0;
    if (config.continuationToken) start = Number(config.continuationToken);
    else if (config.previousPageToken) start = Math.max(0, Number(config.previousPageToken) - config.limit);
    const response = await this.runtime.fetch(this.runtime.options.base + '/rows?start=' + start + '&limit=' + config.limit);
    const rows = JSON.parse(response.text);
    const end = start + rows.length;
    return { data: rows, continuationToken: end < 10 ? String(end) : null, previousPageToken: start > 0 ? String(start) : null };
  }
  async getPageItemById(id, pageOptions, context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/rows/' + encodeURIComponent(id));
    if (!response.ok) throw new ConnectorHttpError(response.status, 'no row ' + id);
    const row = JSON.parse(response.text);
    const limit = Math.max(1, pageOptions.limit);
    return {
      data: row,
      continuationToken: row.n + 1 < 10 ? String(row.n + 1) : null,
      previousPageToken: row.n > 0 ? String(row.n) : null,
      limit,
    };
  }
  async getModel(context) { return { properties: [{ name: 'n', type: 'number' }], itemIdPropertyName: 'id' }; }
  getConfigurationOptions() { return null; }
  getCapabilities() { return ${capabilities}; }
}
`;

type Stored = { id: string; name: string; type: string; folder: string; bytes: number; sha: string };

/** The DAM and the table: media stored from multipart forms (read back by the platform's own parser), rows. */
const startStandIn = async (): Promise<Listening & { stored: Stored[]; bodies: Buffer[] }> => {
  const stored: Stored[] = [];
  const bodies: Buffer[] = [];
  const listening = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/media') {
      const body = await readBody(req);
      const form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
      const file = form.get('file');
      if (!(file instanceof File)) return json(400, { error: 'no file part' });
      const bytes = new Uint8Array(await file.arrayBuffer());
      const sha = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
      const item = {
        id: `m${stored.length + 1}`,
        name: file.name,
        type: file.type,
        folder: String(form.get('folder')),
        bytes: bytes.byteLength,
        sha,
      };
      stored.push(item);
      return json(201, item);
    }
    if (url.pathname === '/rows') {
      const start = Number(url.searchParams.get('start'));
      const limit = Number(url.searchParams.get('limit'));
      const rows = [];
      for (let n = start; n < Math.min(10, start + limit); n++) rows.push({ id: `r${n}`, n });
      return json(200, rows);
    }
    const row = /^\/rows\/r(\d+)$/.exec(url.pathname);
    if (row && Number(row[1]) < 10) return json(200, { id: `r${row[1]}`, n: Number(row[1]) });
    json(404, { error: 'none' });
  });
  return { ...listening, stored, bodies };
};

const sha256 = async (bytes: Uint8Array) =>
  Buffer.from(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)).toString('hex');

/** Bytes that differ from one position to the next, so a part cut or shifted anywhere shows. */
const patterned = (size: number, seed: number) => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
};

// On the embedded database only: what runs here is the runtime and its routes; the database only holds the published
// connectors, and every store test runs on both backends.
describe.each((await testBackends()).slice(0, 1))(
  'the current connector interface through the server on $name',
  (backend) => {
    let tp: TestPlatform;
    let standIn: Awaited<ReturnType<typeof startStandIn>>;
    const { rest, tokenOf } = platformClient(() => tp);
    const ids: Record<string, string> = {};

    const publish = async (script: string, type: 'media' | 'data'): Promise<string> => {
      const reply = await rest<{ id: string }>('POST', connectorsPath, {
        ...owner,
        body: connectorBody({ script, type, options: { base: standIn.url } }),
      });
      expectStatus(reply, 201);
      return reply.body.id;
    };

    const upload = async (id: string, form: FormData, caller = server) => {
      const response = await tp.call(`${connectorsPath}/${id}/media/upload`, {
        method: 'POST',
        token: await tokenOf(caller),
        body: form,
      });
      const text = await response.text();
      return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
    };

    const run = (id: string, path: string, body: unknown) =>
      rest<Record<string, unknown>>('POST', `${connectorsPath}/${id}/${path}`, { ...server, body });

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      await importDataFile(tp.database, fixture(new Date()));
      standIn = await startStandIn();
      ids.uploading = await publish(
        uploadingConnector('{ query: true, detail: true, filtering: false, upload: true }'),
        'media',
      );
      ids.notUploading = await publish(
        uploadingConnector('{ query: true, detail: true, filtering: false }'),
        'media',
      );
      ids.variable = await publish(
        variableConnector('{ filtering: false, sorting: false, model: true, dataSourceVariable: true }'),
        'data',
      );
      ids.plainData = await publish(
        variableConnector('{ filtering: false, sorting: false, model: true }'),
        'data',
      );
    });
    afterAll(async () => {
      await tp?.close();
      await standIn?.close();
    });

    it('media/upload: the files of a multipart form reach the API as the connector sends them, their Media answered', async () => {
      const first = patterned(3 * MiB, 1);
      const second = new TextEncoder().encode('name,qty\nflyer,3\n');
      const form = new FormData();
      form.append('file', new Blob([first], { type: 'image/png' }), 'hero.png');
      form.append('file', new Blob([second], { type: 'text/csv' }), 'stock.csv');
      form.append('context', JSON.stringify({ folder: '/uploads/2026' }));
      form.append('usage', 'server');
      const before = standIn.stored.length;
      const answer = await upload(ids.uploading!, form);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual([
        {
          id: expect.any(String),
          name: 'hero.png',
          relativePath: '/uploads/2026',
          type: 0,
          metaData: { bytes: String(3 * MiB) },
        },
        {
          id: expect.any(String),
          name: 'stock.csv',
          relativePath: '/uploads/2026',
          type: 0,
          metaData: { bytes: String(second.byteLength) },
        },
      ]);
      const stored = standIn.stored.slice(before).sort((a, b) => a.name.localeCompare(b.name));
      expect(stored.map(({ name, type, folder, bytes }) => ({ name, type, folder, bytes }))).toEqual([
        { name: 'hero.png', type: 'image/png', folder: '/uploads/2026', bytes: 3 * MiB },
        { name: 'stock.csv', type: 'text/csv', folder: '/uploads/2026', bytes: second.byteLength },
      ]);
      expect(stored.map((item) => item.sha)).toEqual([await sha256(first), await sha256(second)]);
      // The activity records the run, its two fetches, and never the bytes.
      const activity = await rest<{ data: { method: string; status: number; fetches: unknown[] }[] }>(
        'GET',
        `${connectorsPath}/${ids.uploading}/activity?limit=1`,
        server,
      );
      expect(activity.body.data[0]).toMatchObject({ method: 'upload', status: 200 });
      expect(activity.body.data[0]!.fetches).toHaveLength(2);
    });

    it('media/upload through @platform/client: REST sends a form, tRPC the files in base64', async () => {
      const token = await tokenOf(server);
      const file = {
        name: 'logo.svg',
        contentType: 'image/svg+xml',
        base64: Buffer.from('<svg/>').toString('base64'),
      };
      const input = {
        environment: ENVIRONMENT,
        connectorId: ids.uploading!,
        body: { files: [file], context: { folder: '/c' } },
      };
      const viaRest = await createRestClient({
        baseUrl: tp.url,
        token: () => token,
      }).connectorRuntime.mediaUpload(input);
      const viaTrpc = await createPlatformClient(tp.url, () => token).connectorRuntime.mediaUpload.mutate(
        input,
      );
      for (const answer of [viaRest, viaTrpc]) {
        expect(answer).toEqual([
          { id: expect.any(String), name: 'logo.svg', relativePath: '/c', type: 0, metaData: { bytes: '6' } },
        ]);
      }
      expect(standIn.stored.slice(-2).map((item) => [item.name, item.type, item.bytes])).toEqual([
        ['logo.svg', 'image/svg+xml', 6],
        ['logo.svg', 'image/svg+xml', 6],
      ]);
    });

    it('media/upload: 50 MiB a file and 100 MiB in all (413), beyond the 1 MiB of JSON bodies', async () => {
      const big = new FormData();
      big.append('file', new Blob([new Uint8Array(50 * MiB + 1)]), 'too-big.bin');
      const one = await upload(ids.uploading!, big);
      expect(one.status).toBe(413);
      expect(one.body.detail).toBe("The file 'too-big.bin' is larger than the 50 MiB a file may have.");

      const many = new FormData();
      for (let i = 0; i < 3; i++) many.append('file', new Blob([new Uint8Array(40 * MiB)]), `part-${i}.bin`);
      const all = await upload(ids.uploading!, many);
      expect(all.status).toBe(413);
      expect(all.body.detail).toBe('The files are larger than the 100 MiB one request may carry in all.');

      const fits = new FormData();
      fits.append('file', new Blob([patterned(50 * MiB, 9)], { type: 'application/pdf' }), 'print.pdf');
      const ok = await upload(ids.uploading!, fits);
      expect(ok.status, ok.text).toBe(200);
      expect(standIn.stored.at(-1)).toMatchObject({
        name: 'print.pdf',
        bytes: 50 * MiB,
        type: 'application/pdf',
      });
    });

    it('media/upload: 400 naming the part for a bad form, 415 for another body type', async () => {
      const cases: [(form: FormData) => void, Record<string, string[]>][] = [
        [(form) => form.append('context', '{}'), { file: ['required: one or more file parts'] }],
        [
          (form) => form.append('file', 'just text'),
          { file: ['must be a file part (with a file name), not text'] },
        ],
        [
          (form) => {
            form.append('file', new Blob(['x']), 'a.txt');
            form.append('attachment', new Blob(['x']), 'b.txt');
          },
          { attachment: ["not a part of this form: send files as 'file'"] },
        ],
        [
          (form) => {
            form.append('file', new Blob(['x']), 'a.txt');
            form.append('options', '{not json');
          },
          { options: ['not valid JSON'] },
        ],
        [
          (form) => {
            form.append('file', new Blob(['x']), 'a.txt');
            form.append('usage', 'everyone');
          },
          { usage: expect.any(Array) },
        ],
        [
          (form) => {
            form.append('file', new Blob(['x']), 'a.txt');
            form.append('context', JSON.stringify({ nested: { no: 1 } }));
          },
          { 'context.nested': expect.any(Array) },
        ],
        [
          (form) => {
            form.append('file', new Blob(['x']), 'a.txt');
            form.append('folder', '/x');
          },
          { folder: ['not a part of this form'] },
        ],
      ];
      for (const [build, errors] of cases) {
        const form = new FormData();
        build(form);
        const answer = await upload(ids.uploading!, form);
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body.errors).toEqual(errors);
      }
      const json = await run(ids.uploading!, 'media/upload', { files: [] });
      expect(json.status).toBe(415);
      expect((json.body as { detail: string }).detail).toContain('multipart/form-data');
    });

    it('media/upload is refused on the token and its role before any byte of the body is read', async () => {
      const writer = await tokenOf({ user: USERS.contentUser, roles: ['platform:write'] });
      const url = new URL(`${tp.url}${connectorsPath}/${ids.uploading}/media/upload`);
      // The head promises 80 MiB that never come: the answer must not wait for them.
      const statusOf = (authorization: string | undefined) =>
        new Promise<number>((resolve, reject) => {
          const outgoing = request(url, {
            method: 'POST',
            headers: {
              ...(authorization ? { authorization } : {}),
              'content-type': 'multipart/form-data; boundary=x',
              'content-length': String(80 * MiB),
            },
          });
          outgoing.on('response', (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
            outgoing.destroy();
          });
          outgoing.on('error', reject);
          outgoing.flushHeaders();
        });
      expect(await statusOf(undefined)).toBe(401);
      expect(await statusOf(`Bearer ${writer}`)).toBe(403);
    });

    it('upload and getPageItemById exist only where the capabilities say so (400 METHOD_MISSING)', async () => {
      const form = () => {
        const f = new FormData();
        f.append('file', new Blob(['x']), 'a.txt');
        return f;
      };
      const lacking = await upload(ids.notUploading!, form());
      expect([lacking.status, lacking.body.code]).toEqual([400, 'METHOD_MISSING']);
      expect(lacking.body.detail).toContain('upload: true');
      const dataType = await upload(ids.variable!, form());
      expect([dataType.status, dataType.body.code]).toEqual([400, 'METHOD_MISSING']);
      const item = await run(ids.plainData!, 'data/item', { id: 'r1', pageOptions: { limit: 5 } });
      expect([item.status, item.body.code]).toEqual([400, 'METHOD_MISSING']);
      expect(item.body.detail).toContain('dataSourceVariable: true');
    });

    it('data/item: one row with the tokens around it; exact 400s for its fields', async () => {
      const item = await run(ids.variable!, 'data/item', {
        id: 'r4',
        pageOptions: { limit: 3, sorting: null },
      });
      expectStatus(item, 200);
      expect(item.body).toEqual({
        data: { id: 'r4', n: 4 },
        continuationToken: '5',
        previousPageToken: '4',
        limit: 3,
      });
      const missing = await run(ids.variable!, 'data/item', { id: 'r99', pageOptions: { limit: 3 } });
      expect([missing.status, missing.body.code, missing.body.connectorStatus]).toEqual([
        502,
        'CONNECTOR_HTTP_ERROR',
        404,
      ]);
      const bad: [unknown, string][] = [
        [{ pageOptions: { limit: 3 } }, 'id'],
        [{ id: '', pageOptions: { limit: 3 } }, 'id'],
        [{ id: 'r1' }, 'pageOptions'],
        [{ id: 'r1', pageOptions: { limit: -1 } }, 'pageOptions.limit'],
        [{ id: 'r1', pageOptions: { limit: 3, offset: 2 } }, 'pageOptions.offset'],
      ];
      for (const [body, field] of bad) {
        const answer = await run(ids.variable!, 'data/item', body);
        expect(answer.status, answer.text).toBe(400);
        expect(Object.keys(answer.body.errors as object)).toEqual([field]);
      }
    });

    it('data/page: backward with previousPageToken, limit 0, never both tokens; media/query takes pageSize 0', async () => {
      const next = await run(ids.variable!, 'data/page', { config: { limit: 3, continuationToken: '6' } });
      expect(next.body).toMatchObject({ continuationToken: '9', previousPageToken: '6' });
      const back = await run(ids.variable!, 'data/page', { config: { limit: 3, previousPageToken: '6' } });
      expectStatus(back, 200);
      expect(back.body).toEqual({
        data: [
          { id: 'r3', n: 3 },
          { id: 'r4', n: 4 },
          { id: 'r5', n: 5 },
        ],
        continuationToken: '6',
        previousPageToken: '3',
      });
      const empty = await run(ids.variable!, 'data/page', { config: { limit: 0 } });
      expect(empty.body).toEqual({ data: [], continuationToken: null, previousPageToken: null });
      const both = await run(ids.variable!, 'data/page', {
        config: { limit: 3, continuationToken: '3', previousPageToken: '6' },
      });
      expect(both.status).toBe(400);
      expect(both.body.errors).toEqual({
        'config.previousPageToken': ['give previousPageToken or continuationToken, not both'],
      });
      const none = await run(ids.uploading!, 'media/query', { query: { pageSize: 0 } });
      expect(none.body).toEqual({ pageSize: 0, data: [], links: { nextPage: '' } });
    });

    it('the typed client names the new routes and their errors', async () => {
      const token = await tokenOf(server);
      const client = createRestClient({ baseUrl: tp.url, token: () => token });
      const error = await client.connectorRuntime
        .dataItem({
          environment: ENVIRONMENT,
          connectorId: ids.plainData!,
          body: { id: 'r1', pageOptions: { limit: 1 } },
        })
        .catch((caught: unknown) => caught);
      expect(isPlatformApiError(error) && error.problem.code).toBe('METHOD_MISSING');
      const page = await createPlatformClient(tp.url, () => token).connectorRuntime.dataItem.mutate({
        environment: ENVIRONMENT,
        connectorId: ids.variable!,
        body: { id: 'r0', pageOptions: { limit: 2 } },
      });
      expect(page).toEqual({
        data: { id: 'r0', n: 0 },
        continuationToken: '1',
        previousPageToken: null,
        limit: 2,
      });
    });
  },
);
