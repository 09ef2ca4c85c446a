import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Listening, listen, readBody } from '../support/loopback-servers.ts';

/** What a stand-in API received: the path with its query, the API key, for uploads the files. */
export type Received = { method: string; path: string; apiKey: string | undefined };
export type Uploaded = { folder: string; files: { name: string; type: string; text: string }[] };

export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Refuses a request without the key, as the real APIs do; records every request. */
const guarded =
  (
    apiKey: string,
    received: Received[],
    handle: (req: IncomingMessage, res: ServerResponse, url: URL) => unknown,
  ) =>
  (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const key = req.headers['x-api-key'];
    received.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      apiKey: key as string | undefined,
    });
    if (key !== apiKey) return json(res, 401, { error: 'no key' });
    Promise.resolve(handle(req, res, url)).catch((error: unknown) =>
      json(res, 500, { error: String(error) }),
    );
  };

type Entry = {
  kind: 'file' | 'folder';
  id: string;
  name: string;
  path: string;
  format?: string;
  width?: number;
};

/**
 * The Acme Library: folders `/` → `Brand/` (20 files, so two pages of 15) and `Uploads/`, a file at the root, search
 * over names, files by id, renditions as PNG bytes, multipart uploads (`file` parts) into `?path=`.
 */
export const startLibraryApi = async (apiKey: string) => {
  const received: Received[] = [];
  const uploads: Uploaded[] = [];
  const brand: Entry[] = Array.from({ length: 20 }, (_, i) => ({
    kind: 'file',
    id: `f-2${String(i).padStart(2, '0')}`,
    name: `Logo ${i}.png`,
    path: '/Brand/',
    format: 'png',
    width: 400 + i,
  }));
  const root: Entry[] = [
    { kind: 'folder', id: 'd-brand', name: 'Brand', path: '/' },
    { kind: 'folder', id: 'd-uploads', name: 'Uploads', path: '/' },
    { kind: 'file', id: 'f-101', name: 'Dunes.png', path: '/', format: 'png', width: 1200 },
  ];
  const files = new Map([...root, ...brand].filter((e) => e.kind === 'file').map((e) => [e.id, e]));
  const listing = (res: ServerResponse, url: URL, entries: Entry[]) => {
    const page = Number(url.searchParams.get('page'));
    const size = Number(url.searchParams.get('per_page'));
    json(res, 200, {
      items: entries.slice((page - 1) * size, page * size),
      page,
      pages: Math.max(1, Math.ceil(entries.length / size)),
    });
  };
  const listening: Listening = await listen(
    guarded(apiKey, received, async (req, res, url) => {
      if (url.pathname === '/v1/folders') {
        const folders: Record<string, Entry[]> = { '/': root, '/Brand/': brand, '/Uploads/': [] };
        const entries = folders[url.searchParams.get('path') ?? ''];
        return entries ? listing(res, url, entries) : json(res, 404, { error: 'no folder' });
      }
      if (url.pathname === '/v1/search') {
        const term = (url.searchParams.get('q') ?? '').toLowerCase();
        return listing(
          res,
          url,
          [...files.values()].filter((e) => e.name.toLowerCase().includes(term)),
        );
      }
      const file = /^\/v1\/files\/([^/]+)(\/renditions\/(\w+))?$/.exec(url.pathname);
      if (file) {
        const entry = files.get(decodeURIComponent(file[1] ?? ''));
        if (!entry) return json(res, 404, { error: 'no file' });
        if (!file[2]) return json(res, 200, entry);
        res.writeHead(200, { 'content-type': 'image/png', 'x-rendition': file[3] ?? '' });
        return res.end(PNG);
      }
      if (url.pathname === '/v1/uploads' && req.method === 'POST') {
        const form = await new Request('http://stand-in/', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: new Uint8Array(await readBody(req)),
        }).formData();
        const folder = url.searchParams.get('path') ?? '';
        const parts = form.getAll('file').filter((part): part is File => typeof part !== 'string');
        uploads.push({
          folder,
          files: await Promise.all(
            parts.map(async (p) => ({ name: p.name, type: p.type, text: await p.text() })),
          ),
        });
        const items = parts.map((p, i) => ({ kind: 'file', id: `u-${i}`, name: p.name, path: folder }));
        return json(res, 201, { items });
      }
      json(res, 404, { error: 'no route' });
    }),
  );
  return { ...listening, received, uploads };
};

/** The Acme Catalog: 120 products `p-0` … `p-119` (price = 2 × n), offset paging, sorting by price, one by id. */
export const startCatalogApi = async (apiKey: string) => {
  const received: Received[] = [];
  const products = Array.from({ length: 120 }, (_, n) => ({
    id: `p-${n}`,
    name: `Product ${n}`,
    price: 2 * n,
  }));
  const sorted = (url: URL) =>
    url.searchParams.get('sort') === 'price' && url.searchParams.get('order') === 'desc'
      ? [...products].reverse()
      : products;
  const listening: Listening = await listen(
    guarded(apiKey, received, (_req, res, url) => {
      if (url.pathname === '/v1/schema') {
        return json(res, 200, {
          fields: [
            { name: 'id', kind: 'text' },
            { name: 'name', kind: 'text' },
            { name: 'price', kind: 'number' },
          ],
        });
      }
      if (url.pathname === '/v1/products') {
        const offset = Number(url.searchParams.get('offset'));
        const limit = Number(url.searchParams.get('limit'));
        return json(res, 200, {
          items: sorted(url).slice(offset, offset + limit),
          offset,
          total: products.length,
        });
      }
      const one = /^\/v1\/products\/([^/]+)$/.exec(url.pathname);
      if (one) {
        const rows = sorted(url);
        const index = rows.findIndex((row) => row.id === one[1]);
        if (index === -1) return json(res, 404, { error: 'no product' });
        return json(res, 200, { item: rows[index], index, total: rows.length });
      }
      json(res, 404, { error: 'no route' });
    }),
  );
  return { ...listening, received };
};
