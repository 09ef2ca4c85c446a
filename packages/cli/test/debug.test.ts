import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { cpSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
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

const run = async (page: Page, method: string) => {
  await page.getByLabel('Method', { exact: true }).selectOption(method);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect.poll(() => page.getByRole('status').innerText(), { timeout: 15_000 }).toMatch(/answered|:/);
};

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
      await run(page, 'query');
      expect(await page.getByRole('status').innerText()).toMatch(/^query answered in \d+ ms$/);
      const thumbnail = page.getByTestId('thumbnails').getByRole('img', { name: 'Sample picture' });
      await expect
        .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBe(64);
      expect(await page.getByRole('region', { name: 'Fetches' }).innerText()).toContain('data:');
      await run(page, 'download');
      const picture = page.getByRole('region', { name: 'Result' }).getByRole('img', { name: 'download' });
      await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
      await run(page, 'detail');
      expect(await page.getByRole('status').innerText()).toMatch(/CONNECTOR_HTTP_ERROR: no media id/);
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
      await run(page, 'getPage');
      const table = page.getByTestId('rows');
      expect(await table.locator('th').allInnerTexts()).toEqual(['sku', 'name']);
      expect(await table.locator('tbody tr').count()).toBe(2);
      const fetches = await page.getByRole('region', { name: 'Fetches' }).innerText();
      expect(fetches).toContain(`${api.url}/dev/stand-in/data/products`);
      expect(fetches).toContain('200');
      expect(api.seen.map((s) => s.url)).toEqual(['/dev/stand-in/data/products?limit=10']);
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
      await run(page, 'getPage');
      expect(await page.getByTestId('rows').innerText()).toContain('Proxied');
      const [sent] = api.seen;
      expect(sent?.url).toBe(`/grafx/api/v1/environment/acme-prod/connectors/${connectorId}/proxy`);
      expect(sent?.headers.authorization).toBe(`Bearer ${token}`);
      expect(sent?.headers['x-grafx-proxy-external-url']).toBe(
        'https://catalogue.example.com/api/data/products?limit=10',
      );
      expect(sent?.headers['x-grafx-proxy-external-method']).toBe('GET');
      expect(sent?.headers['x-grafx-proxy-external-authentication-source']).toBe('browser');
      expect(await page.content()).not.toContain(token);
    } finally {
      await page.close();
      await debug.stop();
      proxy.close();
      api.close();
    }
  });

  test('-p must be a port, and a half-given platform target names what is missing', async () => {
    expect((await runCli(['debug', '-p', 'x'])).stderr).toMatch(/^error: -p must be a port number/);
    const partial = await runCli(['debug', '--connectorId', 'abc']);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(/^error: missing required options -e, -b/);
  });
});
