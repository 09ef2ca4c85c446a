import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  chromiumAvailable,
  reportTrouble,
  screenshot,
  seriousViolations,
  signIn,
} from './support/browser.ts';
import { type StartedServer, startServer } from './support/server.ts';

const loadedImages = (scope: Locator) =>
  scope
    .locator('img')
    .evaluateAll(
      (images) =>
        images.filter(
          (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
        ).length,
    );

/**
 * Try it, as a connector developer meets it after `npm start` on a fresh machine: the two demo connectors run in
 * this browser in the platform runtime, their fetches through the proxy to the server's own stand-in API.
 */
describe.runIf(chromiumAvailable)('the console: Try it', () => {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] }),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    reportTrouble(page);
    await signIn(page, server.url, (p) => p.getByRole('radio', { name: /\(demo\|owner\)/ }).check());
    await page.getByRole('link', { name: 'Acme' }).click();
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByRole('link', { name: 'Connectors of Acme Production', exact: true }).click();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (name: RegExp) => {
    const card = page.locator('article.card').filter({ has: page.getByRole('heading', { name }) });
    await card.locator('summary', { hasText: 'Try it' }).click();
    return card.getByRole('region', { name: /^Try / });
  };

  it('media on client credentials: the root at once, PNGs as pictures, SVGs in sandboxed frames, detail and download, every fetch listed', async () => {
    const panel = await open(/^Stand-in media/);
    const grid = panel.getByRole('list', { name: 'Query results' });
    await expect.poll(() => grid.getByRole('listitem').count(), { timeout: 30_000 }).toBe(8);
    await expect.poll(() => loadedImages(grid), { timeout: 30_000 }).toBe(5);
    expect(await panel.getByRole('status').first().innerText()).toBe('8 media on page 1 of /');
    // The SVG pictures are drawn in sandboxed frames (an opaque origin), never on the console's own.
    const badge = grid
      .getByRole('button', { name: 'Round badge' })
      .locator('iframe')
      .contentFrame()
      .locator('img');
    await expect
      .poll(() => badge.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);

    await grid.getByRole('button', { name: 'Glacier lake' }).click();
    const detail = panel.getByRole('region', { name: 'Detail of Glacier lake' });
    await expect.poll(() => detail.locator('pre').innerText()).toContain('"width": 640');
    await detail.getByRole('button', { name: 'Download' }).click();
    const picture = detail.getByRole('img', { name: 'Glacier lake.png' });
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);

    const log = panel.getByRole('region', { name: 'Fetch log' });
    const fetches = await log.locator('tr[data-fetch]').allInnerTexts();
    expect(fetches.some((row) => row.includes('/dev/stand-in/media/assets?') && row.includes('200'))).toBe(
      true,
    );
    expect(
      fetches.some((row) => /\/dev\/stand-in\/media\/assets\/photo-2\/file\?size=.*\t200/.test(row)),
    ).toBe(true);
    // The platform's run route (server side, same proxy) records an invocation; the panel's activity list shows it.
    const connectorId = await panel.locator('xpath=ancestor::article').getAttribute('data-connector');
    const run = await fetch(
      `${server.url}/grafx/api/v1/environment/acme-prod/connectors/${connectorId}/media/query`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ usage: 'browser', query: { pageSize: 3 } }),
      },
    );
    expect(run.status).toBe(200);
    expect(((await run.json()) as { data: unknown[] }).data).toHaveLength(3);
    const activity = panel.getByRole('region', { name: 'Activity' });
    await activity.getByRole('button', { name: 'Refresh' }).click();
    const entry = activity.locator('tr[data-activity]').first();
    await expect.poll(() => entry.innerText()).toMatch(/query\s+browser\s+200/);
    expect(await entry.innerText()).toContain('/dev/stand-in/media/assets');
    await screenshot(page, '20-try-it-media');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('data on a static key: the model and the first page of 50 rows at once, as a table', async () => {
    const panel = await open(/^Stand-in data/);
    const table = panel.getByRole('table', { name: 'Rows' });
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 30_000 }).toBe(24);
    expect(await table.locator('thead th').allInnerTexts()).toEqual([
      'sku',
      'name',
      'category',
      'price',
      'inStock',
      'launched',
    ]);
    expect(await table.locator('tbody tr').first().locator('td').first().innerText()).toBe('P-001');
    // All 24 rows fit a page of 50: the connector gives no token either way.
    expect(await panel.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    expect(await panel.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await expect.poll(() => panel.getByRole('list', { name: 'Model' }).innerText()).toContain('price number');
    const log = await panel
      .getByRole('region', { name: 'Fetch log' })
      .locator('tr[data-fetch]')
      .allInnerTexts();
    expect(log.filter((row) => row.includes('/dev/stand-in/data/products'))).toHaveLength(1);
    expect(log.filter((row) => row.includes('/dev/stand-in/data/schema'))).toHaveLength(1);
    await screenshot(page, '21-try-it-data');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('search goes through the connector: a name that matches nothing is an empty page', async () => {
    const panel = page.getByRole('region', { name: /^Try Stand-in media/ });
    await panel.getByLabel('Search', { exact: true }).fill('no such picture');
    await panel.getByRole('button', { name: 'Run query' }).click();
    await expect
      .poll(() => panel.getByRole('status').first().innerText())
      .toBe('0 media on page 1 of the search “no such picture”');
    const log = await panel
      .getByRole('region', { name: 'Fetch log' })
      .locator('tr[data-fetch]')
      .allInnerTexts();
    // Query values never appear in the log: the search term is in the URL the stand-in got, not in what is shown.
    expect(log[0]).toMatch(/\/dev\/stand-in\/media\/assets\?/);
    expect(log.join('\n')).not.toContain('no%20such%20picture');
  });
});
