import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/run-cli.ts';

const CHROMIUM = '/usr/bin/chromium';
const chromiumAvailable = await promisify(execFile)(CHROMIUM, ['--version']).then(
  () => true,
  () => false,
);
const EXAMPLES = fileURLToPath(new URL('../../../examples/connectors/', import.meta.url));

/** Starts `connector-cli debug` on a free port; resolves to the page's address once it serves. */
const startDebug = async (args: string[], env: Record<string, string> = {}) => {
  const child = startCli(['debug', ...args, '-p', '0'], { env });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  for (let i = 0; i < 200 && !/http:\/\/127\.0\.0\.1:\d+\//.test(stdout); i++) {
    if (child.exitCode !== null) throw new Error(`debug exited: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout)?.[0];
  if (!url) throw new Error(`debug did not start: ${stderr}`);
  return {
    url,
    stop: async () => {
      child.kill('SIGINT');
      const [code] = await once(child, 'close');
      return code as number;
    },
  };
};

/** A loopback API the connectors call: the stand-in catalogue's two endpoints, recording what reached it. */
const startApi = async () => {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.setHeader('content-type', 'application/json');
    if (path.endsWith('/data/products'))
      res.end(
        JSON.stringify({
          rows: [
            { sku: 'P-1', name: 'Mug' },
            { sku: 'P-2', name: 'Cap' },
          ],
          nextCursor: null,
        }),
      );
    else if (path.endsWith('/data/schema'))
      res.end(JSON.stringify({ fields: [{ name: 'sku', type: 'string' }] }));
    else res.writeHead(404).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => server.close(),
  };
};

/** Picks one of Studio's calls by its label and runs it. */
const run = async (page: Page, call: string) => {
  await page.getByLabel('Method', { exact: true }).selectOption({ label: call });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect.poll(() => page.getByRole('status').innerText(), { timeout: 15_000 }).toMatch(/answered|:/);
};

/**
 * A GET of the debug server with the `Host` header given (a page of a rebound name sends its own name), or none
 * (HTTP/1.0 clients).
 */
const getWithHost = (url: string, path: string, host: string | undefined) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    get(new URL(path, url), { headers: host === undefined ? {} : { host }, setHost: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    }).on('error', reject);
  });

/**
 * A media connector whose downloads would run script if a page of the debug server's origin rendered them, and whose
 * query echoes the arguments it received.
 */
const HOSTILE = `
const item = (id: string) => ({ id, name: id, relativePath: '/', type: 0 as const, metaData: {} });
const files: Record<string, string> = {
  page: 'data:text/html,' + encodeURIComponent('<title>owned</title><script>localStorage.setItem("ran", "html")</script>'),
  vector: 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"><script>localStorage.setItem("ran", "svg")</script></svg>'),
};
export default class Hostile {
  constructor(private readonly runtime: { fetch(url: string, init: unknown): Promise<{ arrayBuffer: unknown }> }) {}
  async query(options: unknown, context: unknown) {
    return { pageSize: 2, data: [item('page'), item('vector')], links: { nextPage: '' }, received: { options, context } };
  }
  async detail(id: string) { return item(id); }
  async upload(files: unknown[], context: unknown) {
    return [{ ...item(\`\${files.length} file(s)\`), received: { context } }];
  }
  async download(id: string) { return (await this.runtime.fetch(files[id] ?? '', { method: 'GET' })).arrayBuffer; }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { query: true, detail: true, filtering: true, metadata: false, upload: true }; }
}
`;

/** A data connector of Studio's data source variables, echoing what its getPageItemById received. */
const ROWS = `
export default class Rows {
  async getPage(config: unknown) { return { data: [{ id: 'r-1' }], continuationToken: null, received: config }; }
  async getPageItemById(id: string, options: unknown, context: unknown) {
    return { data: { id }, continuationToken: null, previousPageToken: null, received: { options, context } };
  }
  async getModel() { return { properties: [{ name: 'id', type: 'singleLine' }] }; }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { filtering: false, sorting: false, model: true, dataSourceVariable: true }; }
}
`;

describe('connector-cli debug answers its own address only', () => {
  test('another Host gets 421 (DNS rebinding reads nothing); its own address and localhost get the page, with a CSP', async () => {
    const dir = join(tempDir('debug-host-'), 'project');
    expect((await runCli(['new', '--name', 'Host check', '-o', dir])).code).toBe(0);
    const debug = await startDebug([dir]);
    try {
      const { port } = new URL(debug.url);
      for (const host of [
        `rebound.example:${port}`,
        'rebound.example',
        `127.0.0.1:${Number(port) + 1}`,
        '',
      ]) {
        for (const path of ['/', '/connector.js', '/project.json']) {
          const answer = await getWithHost(debug.url, path, host);
          expect(answer.status, `${host} ${path}`).toBe(421);
          expect(answer.body).not.toContain('class');
        }
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
        const answer = await getWithHost(debug.url, '/', host);
        expect(answer.status).toBe(200);
        expect(answer.headers['content-security-policy']).toBe(
          "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'",
        );
        expect(answer.headers['x-frame-options']).toBe('DENY');
      }
      expect((await getWithHost(debug.url, '/connector.js', `127.0.0.1:${port}`)).body).toContain('class');
    } finally {
      expect(await debug.stop()).toBe(0);
    }
  });
});

describe.runIf(chromiumAvailable)('connector-cli debug in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  }, 60_000);
  afterAll(() => browser?.close());

  test('a fresh media project: query shows thumbnails, download a picture, every fetch is listed', async () => {
    const dir = join(tempDir('debug-new-'), 'project');
    expect((await runCli(['new', '--name', 'Debug me', '-o', dir])).code).toBe(0);
    const debug = await startDebug([dir]);
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Debug me');
      await run(page, 'query: browse the root');
      expect(await page.getByRole('status').innerText()).toMatch(/^query answered in \d+ ms$/);
      const thumbnail = page.getByTestId('thumbnails').getByRole('img', { name: 'Sample picture' });
      await expect
        .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBe(64);
      expect(await page.getByRole('region', { name: 'Fetches' }).innerText()).toContain('data:');
      await run(page, 'download: highres');
      const picture = page.getByRole('region', { name: 'Result' }).getByRole('img', { name: 'download' });
      await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
      await run(page, 'detail');
      expect(await page.getByRole('status').innerText()).toBe(
        'CONNECTOR_HTTP_ERROR: status 404: no media id',
      );
    } finally {
      await page.close();
      expect(await debug.stop()).toBe(0);
    }
  });

  test("what the connector says with runtime.logError is listed under the call's fetches, for that call alone", async () => {
    const dir = join(tempDir('debug-log-'), 'project');
    expect((await runCli(['new', '--name', 'Says things', '-o', dir])).code).toBe(0);
    writeFileSync(
      join(dir, 'connector.ts'),
      `export default class Says {
  constructor(private runtime: any) {}
  async query() {
    this.runtime.logError('query: the listing came back empty');
    return { pageSize: 0, data: [], links: { nextPage: '' } };
  }
  async detail(id: string) { throw new ConnectorHttpError(404, 'no media ' + id); }
  async download() { throw new ConnectorHttpError(404, 'none'); }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { query: true, detail: true, filtering: false, metadata: false }; }
}
`,
    );
    const debug = await startDebug([dir]);
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      await run(page, 'query: browse the root');
      const said = page.getByRole('region', { name: 'logError' });
      expect(await said.innerText()).toBe('logError (1)\nquery: the listing came back empty');
      await run(page, 'detail');
      expect(await said.innerText()).toBe('');
    } finally {
      await page.close();
      expect(await debug.stop()).toBe(0);
    }
  });

  test('a connector that loops runs in a worker: the page stays usable, Stop ends the call, the next run works', async () => {
    const dir = join(tempDir('debug-loop-'), 'project');
    expect((await runCli(['new', '--name', 'Loops', '-o', dir])).code).toBe(0);
    writeFileSync(
      join(dir, 'connector.ts'),
      `export default class Loops {
  async query() { for (;;) {} }
  async detail(id: string) { return { id, name: id, relativePath: '/', type: 0, metaData: {} }; }
  async download() { throw new ConnectorHttpError(404, 'none'); }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { query: true, detail: true, filtering: false, metadata: false }; }
}
`,
    );
    const debug = await startDebug([dir]);
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      await page.getByLabel('Method', { exact: true }).selectOption({ label: 'query: browse the root' });
      await page.getByRole('button', { name: 'Run' }).click();
      await expect.poll(() => page.getByRole('status').innerText()).toBe('Running query…');
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The loop holds the worker until the time limit (30 s); the page answers meanwhile.
      const began = Date.now();
      expect(await page.evaluate(() => document.title.length >= 0)).toBe(true);
      expect(Date.now() - began).toBeLessThan(5_000);
      await page.getByRole('button', { name: 'Stop' }).click();
      await expect
        .poll(() => page.getByRole('status').innerText())
        .toBe('Stopped: the sandbox was ended with its call');
      expect(await page.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
      await run(page, 'detail');
      expect(await page.getByRole('status').innerText()).toMatch(/^detail answered in \d+ ms$/);
    } finally {
      await page.close();
      expect(await debug.stop()).toBe(0);
    }
  });

  test('a data connector through the local relay: the page of rows as a table, the fetch in the list', async () => {
    const api = await startApi();
    const dir = join(tempDir('debug-data-'), 'stand-in-data');
    cpSync(join(EXAMPLES, 'stand-in-data'), dir, { recursive: true });
    // -w as the platform CLI's command lines give it (the page always runs connector.ts as it is).
    const debug = await startDebug([dir, '-w']);
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      await page.getByLabel(/^Options/).fill(JSON.stringify({ baseUrl: `${api.url}/dev/stand-in` }));
      await run(page, 'getPage: the first page');
      const table = page.getByTestId('rows');
      expect(await table.locator('th').allInnerTexts()).toEqual(['sku', 'name']);
      expect(await table.locator('tbody tr').count()).toBe(2);
      const fetches = await page.getByRole('region', { name: 'Fetches' }).innerText();
      expect(fetches).toContain(`${api.url}/dev/stand-in/data/products`);
      expect(fetches).toContain('200');
      expect(api.seen.map((s) => s.url)).toEqual(['/dev/stand-in/data/products?limit=50']);
      await run(page, 'getModel');
      expect(await page.getByTestId('json').innerText()).toContain('singleLine');
      // Another origin's page cannot use the relay.
      const foreign = await fetch(new URL('/relay', debug.url), {
        method: 'POST',
        headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${api.url}/x`, method: 'GET', headers: {}, body: null }),
      });
      expect(foreign.status).toBe(403);
      // Nor another program on this machine, which sends no Origin at all.
      const program = await fetch(new URL('/relay', debug.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${api.url}/x`, method: 'GET', headers: {}, body: null }),
      });
      expect(program.status).toBe(403);
      expect(api.seen.map((s) => s.url)).not.toContain('/x');
      // The page's own relay: from this machine nothing is injected, and it says so; an unreachable target is named
      // with the system's reason, as the platform's proxy words it.
      const own = (url: string) =>
        fetch(new URL('/relay', debug.url), {
          method: 'POST',
          headers: { origin: new URL(debug.url).origin, 'content-type': 'application/json' },
          body: JSON.stringify({ url, method: 'GET', headers: {}, body: null }),
        });
      const relayed = await own(`${api.url}/dev/stand-in/data/products?limit=1`);
      expect(relayed.status).toBe(200);
      expect(await relayed.json()).toMatchObject({ status: 200, credentialsInjected: false });
      const closed = createServer().listen(0, '127.0.0.1');
      await once(closed, 'listening');
      const closedPort = (closed.address() as AddressInfo).port;
      closed.close();
      const refused = await own(`http://127.0.0.1:${closedPort}/x`);
      expect(refused.status).toBe(502);
      expect(await refused.json()).toEqual({
        error: `The target 127.0.0.1:${closedPort} could not be reached (ECONNREFUSED).`,
      });
    } finally {
      await page.close();
      await debug.stop();
      api.close();
    }
  });

  test('--connectorId -e -b: fetches go through the platform proxy with the token, which the page never sees', async () => {
    const api = await startApi();
    const token = `debug-token-${Date.now()}`;
    const proxy = createServer((req, res) => {
      api.seen.push({ url: req.url ?? '', headers: req.headers });
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-security-policy', 'sandbox');
      res.end(JSON.stringify({ rows: [{ sku: 'P-9', name: 'Proxied' }], nextCursor: null }));
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const port = (proxy.address() as AddressInfo).port;
    const dir = join(tempDir('debug-proxy-'), 'stand-in-data');
    cpSync(join(EXAMPLES, 'stand-in-data'), dir, { recursive: true });
    const connectorId = '0d9c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
    const debug = await startDebug(
      [
        dir,
        '--connectorId',
        connectorId,
        '-e',
        'acme-prod',
        '-b',
        `http://acme-prod.localhost:${port}/grafx`,
      ],
      {
        CONNECTOR_CLI_TOKEN: token,
      },
    );
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      expect(await page.locator('body').innerText()).toContain('platform proxy of acme-prod');
      await page
        .getByLabel(/^Options/)
        .fill(JSON.stringify({ baseUrl: 'https://catalogue.example.com/api' }));
      await run(page, 'getPage: the first page');
      expect(await page.getByTestId('rows').innerText()).toContain('Proxied');
      const [sent] = api.seen;
      expect(sent?.url).toBe(`/grafx/api/v1/environment/acme-prod/connectors/${connectorId}/proxy`);
      expect(sent?.headers.authorization).toBe(`Bearer ${token}`);
      expect(sent?.headers['x-grafx-proxy-external-url']).toBe(
        'https://catalogue.example.com/api/data/products?limit=50',
      );
      expect(sent?.headers['x-grafx-proxy-external-method']).toBe('GET');
      expect(sent?.headers['x-grafx-proxy-external-authentication-source']).toBe('browser');
      expect(await page.content()).not.toContain(token);
      // The proxy injects credentials server-side and does not say whether it did: the relay claims nothing.
      const relayed = await fetch(new URL('/relay', debug.url), {
        method: 'POST',
        headers: { origin: new URL(debug.url).origin, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: 'https://catalogue.example.com/api/x',
          method: 'GET',
          headers: {},
          body: null,
        }),
      });
      expect(relayed.status).toBe(200);
      expect(await relayed.json()).not.toHaveProperty('credentialsInjected');
    } finally {
      await page.close();
      await debug.stop();
      proxy.close();
      api.close();
    }
  });

  test('Studio’s calls: the browse shape reaches the connector; an HTML or SVG download is a file to save, never run', async () => {
    const dir = join(tempDir('debug-hostile-'), 'project');
    expect((await runCli(['new', '--name', 'Hostile', '-o', dir])).code).toBe(0);
    writeFileSync(join(dir, 'connector.ts'), HOSTILE);
    const debug = await startDebug([dir]);
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      await run(page, 'query: browse the root');
      expect(JSON.parse(await page.getByTestId('json').innerText()).received).toEqual({
        options: { collection: '/', pageToken: '', pageSize: 15, filter: [''] },
        context: { searchInUploadFolder: false },
      });
      const grid = page.getByTestId('thumbnails');
      expect(await grid.locator('img').count()).toBe(0);
      expect(await grid.getByRole('link').allInnerTexts()).toEqual([
        'Save page (text/html, not drawn)',
        'Save vector (image/svg+xml, not drawn)',
      ]);
      for (const id of ['page', 'vector']) {
        await run(page, 'download: grid picture (mediumres)');
        await page.getByLabel(/^Arguments/).fill(JSON.stringify([id, 'mediumres', 'web', {}]));
        await page.getByRole('button', { name: 'Run' }).click();
        const link = page.getByRole('region', { name: 'Result' }).getByRole('link');
        await expect.poll(() => link.innerText().catch(() => '')).toMatch(/^Save download/);
        expect(await link.getAttribute('download')).toBe('download');
        const saving = page.waitForEvent('download');
        await link.click();
        expect((await saving).suggestedFilename()).toBe('download');
        const opened = page.context().waitForEvent('page');
        await page.evaluate((url) => window.open(url, '_blank'), (await link.getAttribute('href')) ?? '');
        const other = await opened;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(await other.title().catch(() => '')).not.toBe('owned');
        await other.close();
        expect(await page.evaluate(() => localStorage.getItem('ran'))).toBeNull();
      }
    } finally {
      await page.close();
      expect(await debug.stop()).toBe(0);
    }
  });

  test('upload: the picked files, then the context typed in', async () => {
    const dir = join(tempDir('debug-upload-'), 'project');
    expect((await runCli(['new', '--name', 'Uploads', '-o', dir])).code).toBe(0);
    writeFileSync(join(dir, 'connector.ts'), HOSTILE);
    const debug = await startDebug([dir]);
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      await page.getByLabel('Method', { exact: true }).selectOption({ label: 'upload (the picked files)' });
      await page.getByLabel('Upload').setInputFiles([
        { name: 'a.png', mimeType: 'image/png', buffer: Buffer.from('a') },
        { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('b') },
      ]);
      await page.getByLabel(/^Arguments/).fill(JSON.stringify([{ folder: 'uploads' }]));
      await page.getByRole('button', { name: 'Run' }).click();
      await expect.poll(() => page.getByRole('status').innerText()).toMatch(/^upload answered/);
      const [uploaded] = JSON.parse(await page.getByTestId('json').innerText()) as Record<string, unknown>[];
      expect(uploaded).toMatchObject({ name: '2 file(s)', received: { context: { folder: 'uploads' } } });
    } finally {
      await page.close();
      expect(await debug.stop()).toBe(0);
    }
  });

  test('getPageItemById: a row as Studio asks for it', async () => {
    const dir = join(tempDir('debug-rows-'), 'project');
    expect((await runCli(['new', '--name', 'Rows', '--type', 'data', '-o', dir])).code).toBe(0);
    writeFileSync(join(dir, 'connector.ts'), ROWS);
    const debug = await startDebug([dir]);
    const page = await browser.newPage();
    try {
      await page.goto(debug.url);
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Ready');
      await run(page, 'getPageItemById: a row');
      expect(JSON.parse(await page.getByTestId('json').innerText()).received).toEqual({
        options: { limit: 50 },
        context: {},
      });
      await run(page, 'getPage: the previous page');
      expect(JSON.parse(await page.getByTestId('json').innerText()).received).toEqual({
        limit: 50,
        previousPageToken: 'token',
      });
    } finally {
      await page.close();
      expect(await debug.stop()).toBe(0);
    }
  });

  test('-p must be a port, and a half-given platform target names what is missing', async () => {
    expect((await runCli(['debug', '-p', 'x'])).stderr).toMatch(/^error: -p must be a port number/);
    const partial = await runCli(['debug', '--connectorId', 'abc']);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(/^error: missing required options -e, -b/);
  });
});
