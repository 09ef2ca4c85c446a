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
import { type Answer, publishRecorder, type Received, startRecorderUpstream } from './support/recorder.ts';
import { type StartedServer, startServer } from './support/server.ts';

/** A 1×1 PNG: what the upstream answers for a picture. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** Downloads that would run script if a page of the platform's origin rendered them. */
const HTML = '<!doctype html><title>owned</title><script>localStorage.setItem("ran", "html")</script>';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>localStorage.setItem("ran", "svg")</script></svg>';

const file = (id: string, name: string, extension = 'png') => ({
  id,
  name,
  type: 0,
  relativePath: '/',
  extension,
  metaData: {},
});
const folder = (id: string, name: string, relativePath: string) => ({
  id,
  name,
  type: 1,
  relativePath,
  metaData: {},
});
const page = (data: unknown[], nextPage = '') => ({ json: { pageSize: 15, data, links: { nextPage } } });
const rows = (from: number) =>
  Array.from({ length: 50 }, (_, i) => ({ id: `r-${from + i}`, label: `Row ${from + i}` }));

/** The stand-in API of the recorder connectors: a small library with folders, two pages, hostile files, errors. */
const answer =
  (upstream: () => string) =>
  ({ prefix, method, args }: Received): Answer => {
    const failing = /^\/s(\d{3})$/.exec(prefix)?.[1];
    if (failing) return { status: Number(failing), message: `the API answered ${failing}` };
    const [first] = args as [Record<string, unknown> & string];
    const errors: Record<string, Answer> = {
      locked: { status: 401, message: 'token expired' },
      gone: { status: 404, message: 'no such asset' },
      broken: { status: 500, message: 'database down' },
    };
    switch (method) {
      case 'query': {
        const filter = (first.filter as string[] | undefined)?.[0] ?? '';
        if (first.pageSize === 1)
          return errors[filter] ?? page(filter === 'f-sunrise' ? [file('f-sunrise', 'Sunrise')] : []);
        if (filter) return page([file('f-sunrise', 'Sunrise')]);
        if (first.pageToken === 'tok-2') return page([file('f-dusk', 'Dusk')]);
        if (first.collection === '/Photos')
          return page([folder('d-summer', 'Summer', '/Photos/Summer/'), file('f-beach', 'Beach')]);
        if (first.collection === '/Photos/Summer/')
          return page([folder('d-deep', 'Deep', '/Photos/Summer/Deep/'), file('f-sea', 'Sea')]);
        if (first.collection === '/Photos/Summer/Deep/')
          return page([file('f-shell', 'Shell'), file('gone', 'Lost'), file('locked', 'Locked')]);
        return page(
          [
            folder('d-photos', 'Photos', '/'),
            file('f-sunrise', 'Sunrise'),
            file('f-page', 'page', 'html'),
            file('f-vector', 'vector', 'svg'),
          ],
          `${upstream()}/assets?nextPageToken=tok-2&pageSize=15`,
        );
      }
      case 'detail':
        return {
          json: { ...file(first, first), width: 1, height: 1 },
          logError: `detail of ${first}: no size given, 1 × 1 assumed`,
        };
      case 'download':
        if (errors[first]) return errors[first];
        if (first === 'f-page') return { bytes: HTML, contentType: 'text/html; charset=utf-8' };
        if (first === 'f-vector') return { bytes: SVG, contentType: 'image/svg+xml' };
        return { bytes: PNG, contentType: 'image/png' };
      case 'upload':
        return { json: [file('u-1', 'uploaded')] };
      case 'getModel':
        return { json: { properties: [{ name: 'id', type: 'singleLine' }], itemIdPropertyName: 'id' } };
      case 'getPage':
        if (first.continuationToken === 'c2')
          return { json: { data: rows(51), continuationToken: null, previousPageToken: 'p1' } };
        return { json: { data: rows(1), continuationToken: 'c2', previousPageToken: null } };
      case 'getPageItemById':
        return errors[first] ?? { json: { data: { id: first, label: 'Found' }, continuationToken: 'c2' } };
      default:
        return { status: 400, message: `unexpected ${method}` };
    }
  };

/**
 * Try it calls a connector exactly as GraFx Studio's editor does: the recorder connectors hand every call to a loopback
 * upstream, which records the arguments the connector received.
 */
describe.runIf(chromiumAvailable)('the console: Try it calls connectors as Studio does', () => {
  let server: StartedServer;
  let browser: Browser;
  let tab: Page;
  let upstream: Awaited<ReturnType<typeof startRecorderUpstream>>;
  const browse = (filter?: string[]) => (options: Record<string, unknown>) => ({
    collection: '/',
    pageToken: '',
    pageSize: 15,
    ...(filter ? { filter } : {}),
    ...options,
  });
  const args = (method: string, prefix = '') =>
    upstream
      .of(method)
      .filter((call) => call.prefix === prefix)
      .map((call) => call.args);

  beforeAll(async () => {
    let url = '';
    upstream = await startRecorderUpstream(answer(() => url));
    url = upstream.url;
    [server, browser] = await Promise.all([
      // The recorder's upstream is on 127.0.0.1, which the proxy refuses unless told otherwise.
      startServer({ PROXY_ALLOW_PRIVATE_NETWORKS: 'true' }),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] }),
    ]);
    const publish = (
      name: string,
      type: 'media' | 'data',
      capabilities: Record<string, boolean>,
      prefix = '',
    ) =>
      publishRecorder({
        serverUrl: server.url,
        token: server.token,
        environment: 'acme-prod',
        name,
        type,
        upstream: `${upstream.url}${prefix}`,
        capabilities,
        configuration: type === 'media' ? [{ name: 'scope', displayName: 'Folder scope', type: 'text' }] : [],
      });
    await publish('Recorder media', 'media', { query: true, detail: true, filtering: true, upload: true });
    await publish('Recorder plain', 'media', { query: true, detail: true, filtering: false });
    await publish('Recorder data', 'data', {
      filtering: false,
      sorting: false,
      model: true,
      dataSourceVariable: true,
    });
    await publish('Recorder missing data', 'data', { model: true }, '/s404');
    await publish('Recorder broken data', 'data', { model: true }, '/s500');
    tab = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    reportTrouble(tab);
    await signIn(tab, server.url, (p) => p.getByRole('radio', { name: /\(demo\|owner\)/ }).check());
    await tab.goto(`${server.url}/console/`);
    await tab.getByRole('link', { name: 'Acme' }).click();
    await tab.getByRole('link', { name: 'Environments' }).click();
    await tab.getByRole('link', { name: 'Connectors of Acme Production', exact: true }).click();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await upstream?.close();
  });

  const open = async (name: string) => {
    upstream.clear();
    const card = tab.locator('article.card').filter({ has: tab.getByRole('heading', { name, exact: true }) });
    await card.locator('summary', { hasText: 'Try it' }).click();
    return card.getByRole('region', { name: `Try ${name}` });
  };
  const grid = (panel: Locator) => panel.getByRole('list', { name: 'Query results' });
  const names = (panel: Locator) => grid(panel).locator('.thumb-name').allInnerTexts();

  it('opening browses the root at once with Studio’s shapes; pictures are mediumres, folders never downloaded', async () => {
    const panel = await open('Recorder media');
    await expect
      .poll(() => names(panel), { timeout: 30_000 })
      .toEqual(['Photos', 'Sunrise', 'page', 'vector']);
    expect(args('query')).toEqual([[browse([''])({}), { searchInUploadFolder: false }]]);
    await expect.poll(() => args('download').length).toBe(3);
    expect(args('download')).toEqual([
      ['f-sunrise', 'mediumres', 'web', {}],
      ['f-page', 'mediumres', 'web', {}],
      ['f-vector', 'mediumres', 'web', {}],
    ]);
    const sunrise = grid(panel).getByRole('button', { name: 'Sunrise', exact: true });
    await expect
      .poll(() =>
        sunrise.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(1);
    // The HTML picture is not drawn at all; the SVG one only in a frame of an opaque origin, from that frame's blob.
    expect(await grid(panel).getByRole('button', { name: 'page' }).locator('img').count()).toBe(0);
    expect(await grid(panel).getByRole('button', { name: 'page' }).innerText()).toContain('not drawn here');
    const frame = grid(panel).getByRole('button', { name: 'vector' }).locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const drawn = frame.contentFrame().locator('img');
    await expect
      .poll(() => drawn.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(10);
    expect(await drawn.getAttribute('src')).toMatch(/^blob:null\//);
    expect(await tab.evaluate(() => localStorage.getItem('ran'))).toBeNull();
    await screenshot(tab, '22-try-it-studio-root');
    expect(await seriousViolations(tab)).toEqual([]);
  });

  it('the next page is the nextPageToken of the absolute nextPage URL; an empty nextPage ends the list', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    upstream.clear();
    await panel.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => names(panel)).toEqual(['Dusk']);
    expect(args('query')).toEqual([[browse([''])({ pageToken: 'tok-2' }), { searchInUploadFolder: false }]]);
    expect(await panel.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
  });

  it('folders open with the collection built from relativePath and name; breadcrumbs go back to the very collection', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    await panel.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => names(panel)).toContain('Photos');
    upstream.clear();
    await grid(panel).getByRole('button', { name: 'Photos' }).click();
    await expect.poll(() => names(panel)).toEqual(['Summer', 'Beach']);
    // The folder's button went with the page it was on: the focus is on where the user now is, and Tab goes on
    // into the folder's items.
    const focused = () => tab.evaluate(() => document.activeElement?.textContent ?? '');
    await expect.poll(focused).toBe('2 media on page 1 of /Photos');
    await tab.keyboard.press('Tab');
    expect(await focused()).toContain('Summer');
    await grid(panel).getByRole('button', { name: 'Summer' }).click();
    await expect.poll(() => names(panel)).toEqual(['Deep', 'Sea']);
    await grid(panel).getByRole('button', { name: 'Deep' }).click();
    await expect.poll(() => names(panel)).toEqual(['Shell', 'Lost', 'Locked']);
    const crumbs = panel.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(await crumbs.getByRole('listitem').allInnerTexts()).toEqual(['Home', 'Photos', 'Summer', 'Deep']);
    await screenshot(tab, '23-try-it-studio-folder');
    // A picture that failed reads as Studio words it, with the status, the message and the fetch beside its tile.
    for (const [name, words, status, message] of [
      ['Lost', 'Asset is missing', 404, 'no such asset'],
      ['Locked', 'Unauthorized', 401, 'token expired'],
    ] as const) {
      const tile = grid(panel)
        .getByRole('listitem')
        .filter({ has: tab.getByRole('button', { name, exact: true }) });
      await expect.poll(() => tile.getByRole('button').innerText()).toContain(words);
      const alert = tile.getByRole('alert');
      expect(await alert.locator('strong').innerText()).toBe(words);
      expect(await alert.innerText()).toContain(`status ${status}`);
      expect(await alert.innerText()).toContain(message);
      expect(await alert.getByRole('list', { name: 'Fetches of the failed call' }).innerText()).toContain(
        `POST ${upstream.url}/call/download ${status}`,
      );
    }
    // Back to Summer: the collection its opening sent ('/Photos/Summer/', its relativePath holding its name).
    await crumbs.getByRole('button', { name: 'Summer' }).click();
    await expect.poll(() => names(panel)).toEqual(['Deep', 'Sea']);
    await crumbs.getByRole('button', { name: 'Photos' }).click();
    await expect.poll(() => names(panel)).toEqual(['Summer', 'Beach']);
    await expect.poll(focused).toBe('2 media on page 1 of /Photos');
    await crumbs.getByRole('button', { name: 'Home' }).click();
    await expect.poll(() => names(panel)).toContain('Photos');
    expect(args('query').map(([options]) => options)).toEqual([
      browse([''])({ collection: '/Photos' }),
      browse([''])({ collection: '/Photos/Summer/' }),
      browse([''])({ collection: '/Photos/Summer/Deep/' }),
      browse([''])({ collection: '/Photos/Summer/' }),
      browse([''])({ collection: '/Photos' }),
      browse([''])({}),
    ]);
    // Folders are never downloaded.
    for (const id of ['d-photos', 'd-summer', 'd-deep'])
      expect(args('download').map(([at]) => at)).not.toContain(id);
    expect(await seriousViolations(tab)).toEqual([]);
  });

  it('a search starts at the root with filter [term], leaving the folder and its breadcrumbs', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    await grid(panel).getByRole('button', { name: 'Photos' }).click();
    await expect.poll(() => names(panel)).toEqual(['Summer', 'Beach']);
    upstream.clear();
    await panel.getByLabel('Search', { exact: true }).fill('sun');
    await panel.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => names(panel)).toEqual(['Sunrise']);
    expect(args('query')).toEqual([[browse(['sun'])({}), { searchInUploadFolder: false }]]);
    expect(await panel.getByRole('navigation', { name: 'Breadcrumbs' }).count()).toBe(0);
  });

  it('a file’s button shows its detail; highres and fullres download on request with each intent, type and size', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    upstream.clear();
    await grid(panel).getByRole('button', { name: 'Sunrise' }).click();
    const detail = panel.getByRole('region', { name: 'Detail of Sunrise' });
    await expect.poll(() => detail.locator('pre').innerText()).toContain('"width": 1');
    expect(args('detail')).toEqual([['f-sunrise', {}]]);
    // What the connector said with logError during the call is listed under it, in the panel's log.
    const said = panel.getByRole('region', { name: 'Fetch log' }).locator('tr[data-log] td.log');
    await expect
      .poll(() => said.allInnerTexts())
      .toEqual(['logError: detail of f-sunrise: no size given, 1 × 1 assumed']);
    await detail.getByLabel('Preview type').selectOption('fullres');
    await detail.getByLabel('Intent').selectOption('print');
    await detail.getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => detail.locator('figcaption').innerText()).toBe(`image/png, ${PNG.length} bytes`);
    expect(
      await detail
        .getByRole('img', { name: 'Sunrise.png' })
        .evaluate((i: HTMLImageElement) => i.naturalWidth),
    ).toBe(1);
    await detail.getByLabel('Preview type').selectOption('highres');
    await detail.getByLabel('Intent').selectOption('animation');
    await detail.getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => args('download').length).toBe(2);
    expect(args('download')).toEqual([
      ['f-sunrise', 'fullres', 'print', {}],
      ['f-sunrise', 'highres', 'animation', {}],
    ]);
  });

  it('an HTML or an SVG download is offered as a file to save, and never runs script on the platform’s origin', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    await panel.getByLabel('Search', { exact: true }).fill('');
    await panel.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => names(panel)).toContain('page');
    for (const [name, saved, contentType] of [
      ['page', 'page.html', 'text/html; charset=utf-8'],
      ['vector', 'vector.svg', 'image/svg+xml'],
    ] as const) {
      await grid(panel).getByRole('button', { name }).click();
      const detail = panel.getByRole('region', { name: `Detail of ${name}` });
      await detail.getByRole('button', { name: 'Download' }).click();
      const link = detail.getByRole('link', { name: `Save ${saved}` });
      await link.waitFor();
      const caption = await detail.locator('figcaption').innerText();
      expect(caption.startsWith(`${contentType}, `) && caption.endsWith(' bytes')).toBe(true);
      expect(await link.getAttribute('download')).toBe(saved);
      expect(await detail.locator('img').count()).toBe(0);
      const saving = tab.waitForEvent('download');
      await link.click();
      expect((await saving).suggestedFilename()).toBe(saved);
      // Opened in a tab of its own, the file is saved too (its blob is typed application/octet-stream), never run.
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).toMatch(/^blob:/);
      const opened = tab.context().waitForEvent('page');
      await tab.evaluate((url) => window.open(url, '_blank'), href);
      const other = await opened;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await other.title().catch(() => '')).not.toBe('owned');
      await other.close();
      expect(await tab.evaluate(() => localStorage.getItem('ran'))).toBeNull();
    }
    await screenshot(tab, '24-try-it-studio-save-file');
  });

  it('look-up by id: query({filter: [id], pageSize: 1}, {}) and the first item, then its thumbnail', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    upstream.clear();
    await panel.getByLabel('Asset id').fill('f-sunrise');
    await panel.getByRole('button', { name: 'Look up' }).click();
    const found = panel.getByRole('status', { name: 'Asset found' });
    await expect
      .poll(() =>
        found
          .locator('figcaption')
          .innerText()
          .catch(() => ''),
      )
      .toMatch(/^image\/png/);
    expect(await found.innerText()).toContain('Sunrise');
    expect(args('query')).toEqual([[{ filter: ['f-sunrise'], pageSize: 1 }, {}]]);
    expect(args('download')).toEqual([['f-sunrise', 'thumbnail', 'web', {}]]);
  });

  it('errors read as Studio shows them, with the status, the connector’s message and the fetches beside', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    const lookUp = panel.getByRole('region', { name: 'Look up an asset' });
    for (const [id, words, status, message] of [
      ['locked', 'Unauthorized', 401, 'token expired'],
      ['gone', 'Asset is missing', 404, 'no such asset'],
      ['broken', 'Unable to load', 500, 'database down'],
    ] as const) {
      await panel.getByLabel('Asset id').fill(id);
      await panel.getByRole('button', { name: 'Look up' }).click();
      const alert = lookUp.getByRole('alert');
      await expect
        .poll(() =>
          alert
            .locator('strong')
            .innerText()
            .catch(() => ''),
        )
        .toBe(words);
      const text = await alert.innerText();
      expect(text).toContain(`status ${status}`);
      expect(text).toContain(message);
      expect(await alert.getByRole('list', { name: 'Fetches of the failed call' }).innerText()).toContain(
        `POST ${upstream.url}/call/query ${status}`,
      );
    }
    // The proxy's own refusal (a host outside allowedDomains) is told in the platform's words, not as the target's 403.
    await panel.getByLabel('Asset id').fill('elsewhere');
    await panel.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => lookUp.getByRole('alert').innerText()).toContain('FETCH_REFUSED');
    expect(await lookUp.getByRole('alert').innerText()).toContain('elsewhere.example');
    // Nothing found is Studio's 404 too.
    await panel.getByLabel('Asset id').fill('nothing');
    await panel.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => lookUp.getByRole('alert').locator('strong').innerText()).toBe('Asset is missing');
    await screenshot(tab, '25-try-it-studio-error');
    expect(await seriousViolations(tab)).toEqual([]);
  });

  it('configuration options are fields labelled by displayName whose values go in every call’s context', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    upstream.clear();
    await panel.getByLabel('Folder scope').fill('team');
    await panel.getByRole('button', { name: 'Apply options' }).click();
    await expect.poll(() => args('query').length).toBe(1);
    expect(args('query')).toEqual([[browse([''])({}), { scope: 'team', searchInUploadFolder: false }]]);
    await expect.poll(() => args('download').length).toBe(3);
    expect(args('download').every((call) => JSON.stringify(call[3]) === '{"scope":"team"}')).toBe(true);
  });

  it('without the filtering capability: no filter in the browse, the search box disabled, look-up by detail', async () => {
    const panel = await open('Recorder plain');
    await expect.poll(() => names(panel), { timeout: 30_000 }).toContain('Sunrise');
    expect(args('query', '')).toEqual([[browse()({}), { searchInUploadFolder: false }]]);
    expect(await panel.getByLabel('Search', { exact: true }).isDisabled()).toBe(true);
    await expect.poll(() => args('download').length).toBe(3);
    upstream.clear();
    await panel.getByLabel('Asset id').fill('f-sunrise');
    await panel.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => args('download').length).toBe(1);
    expect(args('detail')).toEqual([['f-sunrise', {}]]);
    expect(args('query')).toEqual([]);
    expect(args('download')).toEqual([['f-sunrise', 'thumbnail', 'web', {}]]);
  });

  it('data: the model and the first page of 50 at once, next by continuationToken, previous by previousPageToken', async () => {
    const panel = await open('Recorder data');
    const table = panel.getByRole('table', { name: 'Rows' });
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 30_000 }).toBe(50);
    expect(args('getModel')).toEqual([[{}]]);
    expect(args('getPage')).toEqual([[{ limit: 50, continuationToken: null }, {}]]);
    expect(await panel.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await panel.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => table.locator('tbody tr').first().innerText()).toContain('r-51');
    expect(await panel.getByRole('status').innerText()).toBe('50 rows on page 2');
    await panel.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => table.locator('tbody tr').first().innerText()).toContain('r-1\t');
    expect(args('getPage')).toEqual([
      [{ limit: 50, continuationToken: null }, {}],
      [{ limit: 50, continuationToken: 'c2' }, {}],
      [{ limit: 50, previousPageToken: 'p1' }, {}],
    ]);
    await screenshot(tab, '26-try-it-studio-data');
    expect(await seriousViolations(tab)).toEqual([]);
  });

  it('data errors read as Studio’s data source shows them: "Data not found", "Invalid data source"', async () => {
    for (const [name, words, status] of [
      ['Recorder missing data', 'Data not found', 404],
      ['Recorder broken data', 'Invalid data source', 500],
    ] as const) {
      const panel = await open(name);
      const alert = panel.getByRole('alert').last();
      await expect
        .poll(
          () =>
            alert
              .locator('strong')
              .innerText()
              .catch(() => ''),
          { timeout: 30_000 },
        )
        .toBe(words);
      expect(await alert.innerText()).toContain(`status ${status}`);
      expect(await alert.innerText()).toContain(`the API answered ${status}`);
    }
  });

  it('data: a row by id (typed in, or its id button) is getPageItemById(id, {limit: 50}), then the rows after it', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder data' });
    upstream.clear();
    await panel.getByLabel('Row id').fill('r-7');
    await panel.getByRole('button', { name: 'Look up' }).click();
    const row = panel.getByRole('table', { name: 'Row r-7' });
    await expect.poll(() => row.innerText({ timeout: 1_000 }).catch(() => '')).toContain('Found');
    await expect.poll(() => args('getPage').length).toBe(1);
    expect(args('getPageItemById')).toEqual([['r-7', { limit: 50 }, {}]]);
    expect(args('getPage')).toEqual([[{ limit: 50, continuationToken: 'c2' }, {}]]);
    // A row's id (the model's itemIdPropertyName) is a button that opens that row the same way.
    upstream.clear();
    await panel
      .getByRole('table', { name: 'Rows' })
      .getByRole('button', { name: 'r-52', exact: true })
      .click();
    await expect.poll(() => args('getPageItemById')).toEqual([['r-52', { limit: 50 }, {}]]);
  });

  it('upload: the picked files go to upload(filePointers, context); the connector answers the new media', async () => {
    const panel = tab.getByRole('region', { name: 'Try Recorder media' });
    upstream.clear();
    await panel
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await expect
      .poll(() => panel.getByRole('region', { name: 'Upload files' }).innerText())
      .toContain('Uploaded 1 media: uploaded');
    const [[pointers, context]] = args('upload') as [[unknown[], unknown]];
    expect(pointers).toHaveLength(1);
    expect(context).toEqual({ scope: 'team' });
  });

  it('a connector that loops runs in a worker of its own: the page stays usable, and closing the panel ends it', async () => {
    const api = `${server.url}/grafx/api/v1/environment/acme-prod`;
    const created = await fetch(`${api}/connectors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Looping media',
        version: '1.0.0',
        type: 'media',
        script: `export default class Looping {
          constructor(runtime) { this.runtime = runtime; }
          async query() { for (;;) {} }
          async detail(id) { return { id, name: id, relativePath: '/', type: 0, metaData: {} }; }
          async download() { throw new Error('nothing to download'); }
          getConfigurationOptions() { return []; }
          getCapabilities() { return { query: true, detail: true, filtering: false, metadata: false }; }
        }`,
        options: {},
        allowedDomains: ['127.0.0.1'],
        supportedAuth: [],
      }),
    });
    expect(created.status).toBe(201);
    await tab.reload();
    const looping = await open('Looping media');
    // Its first browse loops until the time limit (30 s); meanwhile the page answers at once.
    await expect.poll(() => looping.innerText()).toContain('Runs version 1.0.0');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const began = Date.now();
    expect(await tab.evaluate(() => document.title.length >= 0)).toBe(true);
    expect(Date.now() - began).toBeLessThan(5_000);
    // Closed, its worker ends with the loop; another connector's Try it runs at once.
    await open('Looping media');
    expect(await looping.count()).toBe(0);
    const plain = await open('Recorder plain');
    await expect.poll(() => names(plain), { timeout: 10_000 }).toContain('Sunrise');
  });
});
