import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { PNG, startCatalogApi, startLibraryApi } from './example-apis.ts';
import { type CliResult, cliRunner, tempDir } from './support.ts';

const ENVIRONMENT = 'acme-prod';
const connectorsPath = `/grafx/api/v1/environment/${ENVIRONMENT}/connectors`;
const EXAMPLES = fileURLToPath(new URL('../../../../examples/connectors/', import.meta.url));
const API_KEY = 'examples-api-key-3e81f0';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

type Item = { id: string; name: string; relativePath: string; type: number };
type MediaPage = { pageSize: number; data: Item[]; links: { nextPage: string } };
type DataPage = {
  data: Record<string, unknown>[];
  continuationToken: string | null;
  previousPageToken: string | null;
};

/**
 * The example connectors of examples/connectors (docs/writing-connectors.md) as a developer ships them: a copy of the
 * project built by `connector-cli build`, its test file run by `connector-cli test`, published by `connector-cli
 * publish` (its `config.iconUrl` is "") and authorized by `set-auth`, then called through the run routes with the
 * shapes GraFx Studio sends, against loopback stand-ins of the APIs they are written for.
 */
// On the embedded database only (the default a developer runs): connector-cli talks HTTP, and what the server stores
// for it is tested on both backends by the environment API's tests.
describe.each((await testBackends()).slice(0, 1))(
  'the example connectors, built, published and run on $name',
  (backend) => {
    let tp: TestPlatform;
    let token: string;
    let baseUrl: string;
    let library: Awaited<ReturnType<typeof startLibraryApi>>;
    let catalog: Awaited<ReturnType<typeof startCatalogApi>>;
    const outputs: CliResult[] = [];
    const cli = cliRunner(outputs);
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      await importDataFile(tp.database, fixture(new Date()));
      token = await tp.token(USERS.envAdmin, ['platform:read', 'platform:write', 'connector:server']);
      baseUrl = `http://${ENVIRONMENT}.localhost:${new URL(tp.url).port}/grafx`;
      library = await startLibraryApi(API_KEY);
      catalog = await startCatalogApi(API_KEY);
    });
    afterAll(async () => {
      await tp?.close();
      await library?.close();
      await catalog?.close();
    });

    const expectOk = (result: CliResult) => {
      expect(result.stderr, result.args.join(' ')).toBe('');
      expect(result.code, result.args.join(' ')).toBe(0);
    };

    const run = async <T>(id: string, path: string, body: unknown): Promise<{ status: number; body: T }> => {
      const response = await tp.call(`${connectorsPath}/${id}/${path}`, {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
    };

    /** build, test, publish (with -ro baseUrl), set-auth: the connector's id. */
    const ship = async (name: 'acme-library' | 'acme-catalog', apiUrl: string, testFile = true) => {
      const project = join(tempDir('cli-e2e-examples-'), name);
      cpSync(join(EXAMPLES, name), project, { recursive: true });
      expectOk(await cli(['build', project]));
      if (testFile) {
        const tested = await cli(['test', project, '-t', join(project, 'tests.json')]);
        expect(tested.code, tested.stdout).toBe(0);
      }
      const at = ['-e', ENVIRONMENT, '-b', baseUrl, '--token', token];
      const published = await cli(['publish', project, ...at, '-ro', `baseUrl=${apiUrl}`]);
      expectOk(published);
      const id = UUID.exec(published.stdout)?.[0] ?? '';
      const keyFile = join(project, 'key.json');
      writeFileSync(keyFile, JSON.stringify({ key: 'X-Api-Key', value: API_KEY }));
      expectOk(
        await cli([
          'set-auth',
          project,
          '--connectorId',
          id,
          ...at,
          '-au',
          'server',
          '-at',
          'staticKey',
          '--auth-data-file',
          keyFile,
        ]),
      );
      const connector = await tp.call(`${connectorsPath}/${id}`, { token });
      expect(await connector.json()).toMatchObject({
        id,
        iconUrl: null,
        type: name === 'acme-library' ? 'media' : 'data',
      });
      return id;
    };

    it('the media example: browse, open a folder, next page, search, look-up by id, grid pictures, detail', async () => {
      const id = await ship('acme-library', library.url);
      ids.library = id;
      const browse = { collection: '/', pageToken: '', pageSize: 15, filter: [''] };
      const studio = { searchInUploadFolder: false };

      const root = await run<MediaPage>(id, 'media/query', { query: browse, context: studio });
      expect(root.body.data.map((item) => [item.name, item.type, item.relativePath])).toEqual([
        ['Brand', 1, '/'],
        ['Uploads', 1, '/'],
        ['Dunes.png', 0, '/'],
      ]);
      expect(root.body.links.nextPage).toBe('');

      // Studio opens a folder with relativePath + name, and pages on with links.nextPage.
      const folder = root.body.data[0] as Item;
      const collection = `${folder.relativePath}${folder.name}`;
      const first = await run<MediaPage>(id, 'media/query', {
        query: { ...browse, collection },
        context: studio,
      });
      expect(first.body.data).toHaveLength(15);
      expect(first.body.data[0]).toMatchObject({ id: 'f-200', relativePath: '/Brand/', type: 0 });
      expect(first.body.links.nextPage).toBe('2');
      const second = await run<MediaPage>(id, 'media/query', {
        query: { ...browse, collection, pageToken: first.body.links.nextPage },
        context: studio,
      });
      expect(second.body.data.map((item) => item.id)).toEqual(['f-215', 'f-216', 'f-217', 'f-218', 'f-219']);
      expect(second.body.links.nextPage).toBe('');

      // A search starts at the root; the look-up of a stored id asks for one item.
      const search = await run<MediaPage>(id, 'media/query', {
        query: { ...browse, filter: ['dunes'] },
        context: studio,
      });
      expect(search.body.data.map((item) => item.id)).toEqual(['f-101']);
      const lookup = await run<MediaPage>(id, 'media/query', {
        query: { filter: ['f-207'], pageSize: 1 },
        context: {},
      });
      expect(lookup.body).toMatchObject({ pageSize: 1, data: [{ id: 'f-207', name: 'Logo 7.png' }] });

      const picture = await tp.call(`${connectorsPath}/${id}/media/download`, {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'f-101', previewType: 'mediumres', intent: 'web', context: studio }),
      });
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await picture.arrayBuffer())).toEqual(PNG);
      expect(library.received.at(-1)?.path).toBe('/v1/files/f-101/renditions/medium');

      const detail = await run<Record<string, unknown>>(id, 'media/detail', { id: 'f-101' });
      expect(detail.body).toMatchObject({ id: 'f-101', width: 1200, metaData: { format: 'png' } });
      const missing = await run<Record<string, unknown>>(id, 'media/detail', { id: 'f-999' });
      expect(missing).toMatchObject({
        status: 502,
        body: { code: 'CONNECTOR_HTTP_ERROR', connectorStatus: 404 },
      });

      // Every request carried the key the platform injected.
      expect(library.received.every((request) => request.apiKey === API_KEY)).toBe(true);
    });

    // Needs the SDK's current interface in the runtime and the server: POST media/upload, FilePointer, StudioFormData.
    it('the media example uploads: media/upload files become FilePointers posted in a StudioFormData', async () => {
      const id = ids.library ?? (await ship('acme-library', library.url));
      const form = new FormData();
      form.append('file', new File(['first picture'], 'first.png', { type: 'image/png' }));
      form.append('file', new File(['second picture'], 'second.png', { type: 'image/png' }));
      form.append('context', JSON.stringify({ uploadFolder: 'Campaign' }));
      const response = await tp.call(`${connectorsPath}/${id}/media/upload`, {
        method: 'POST',
        token,
        body: form,
      });
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expect(JSON.parse(text)).toMatchObject([
        { name: 'first.png', relativePath: '/Campaign/', type: 0 },
        { name: 'second.png', relativePath: '/Campaign/', type: 0 },
      ]);
      expect(library.uploads.at(-1)).toEqual({
        folder: '/Campaign/',
        files: [
          { name: 'first.png', type: 'image/png', text: 'first picture' },
          { name: 'second.png', type: 'image/png', text: 'second picture' },
        ],
      });
    });

    it('the data example: the model, then pages of 50 forward', async () => {
      // Its test file has a getPageItemById test, which `connector-cli test` runs once the runtime has that method.
      const id = await ship('acme-catalog', catalog.url, false);
      ids.catalog = id;
      const model = await run<Record<string, unknown>>(id, 'data/model', { context: {} });
      expect(model.body).toEqual({
        properties: [
          { name: 'id', type: 'singleLine' },
          { name: 'name', type: 'singleLine' },
          { name: 'price', type: 'number' },
        ],
        itemIdPropertyName: 'id',
      });
      const first = await run<DataPage>(id, 'data/page', {
        config: { limit: 50, continuationToken: null },
        context: {},
      });
      expect(first.body.data).toHaveLength(50);
      expect(first.body).toMatchObject({ continuationToken: '50', previousPageToken: null });
      const second = await run<DataPage>(id, 'data/page', {
        config: { limit: 50, continuationToken: first.body.continuationToken },
        context: {},
      });
      expect(second.body.data[0]).toEqual({ id: 'p-50', name: 'Product 50', price: 100 });
      expect(second.body).toMatchObject({ continuationToken: '100', previousPageToken: '0' });
      const last = await run<DataPage>(id, 'data/page', {
        config: { limit: 50, continuationToken: second.body.continuationToken },
        context: {},
      });
      expect(last.body.data).toHaveLength(20);
      expect(last.body).toMatchObject({ continuationToken: null, previousPageToken: '50' });
    });

    // Needs the SDK's current interface in the runtime and the server: previousPageToken, limit 0, POST data/item.
    it('the data example: back with previousPageToken, a limit of 0, one row by id with getPageItemById', async () => {
      const id = ids.catalog ?? (await ship('acme-catalog', catalog.url, false));
      const back = await run<DataPage>(id, 'data/page', {
        config: { limit: 50, previousPageToken: '50' },
        context: {},
      });
      expect(back.status).toBe(200);
      expect(back.body.data[0]).toEqual({ id: 'p-50', name: 'Product 50', price: 100 });
      expect(back.body.previousPageToken).toBe('0');
      const none = await run<DataPage>(id, 'data/page', { config: { limit: 0 }, context: {} });
      expect(none).toMatchObject({
        status: 200,
        body: { data: [], continuationToken: null, previousPageToken: null },
      });
      const item = await run<Record<string, unknown>>(id, 'data/item', {
        id: 'p-61',
        pageOptions: { limit: 50, sorting: [{ property: 'price', direction: 'desc' }] },
        context: {},
      });
      expect(item).toMatchObject({
        status: 200,
        body: { data: { id: 'p-61', price: 122 }, continuationToken: '59', previousPageToken: '8' },
      });
      expect(catalog.received.at(-1)?.path).toBe('/v1/products/p-61?sort=price&order=desc');
    });
  },
);
