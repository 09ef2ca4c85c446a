/**
 * `npm run bench -w @platform/console`: the console's initial JavaScript (gzip, what index.html loads before the
 * first page shows) and Lighthouse's performance and accessibility scores of the subscription page, in Debian's
 * Chromium (CHROME_PATH, default /usr/bin/chromium), against a started server with demo data, signed in as the demo
 * owner. Writes bench/results/console.json at the repository root.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import globalSetup from '../test/support/global-setup.ts';
import { startServer } from '../test/support/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (
  !(await access(chromePath).then(
    () => true,
    () => false,
  ))
) {
  console.info(
    `[console bench] skipped: no Chromium at ${chromePath} (apt-get install chromium, or set CHROME_PATH)`,
  );
  process.exit(0);
}

await globalSetup();

// The scripts and module preloads of index.html are what the browser fetches before anything renders.
const html = await readFile(`${root}dist/index.html`, 'utf8');
const initial = [
  ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/console\/([^"]+\.js)"/g),
].map((m) => m[1] ?? '');
let gzipBytes = 0;
for (const file of initial) gzipBytes += gzipSync(await readFile(`${root}dist/${file}`), { level: 9 }).length;
const initialKb = Math.round((gzipBytes / 1024) * 10) / 10;
console.info(`initial JavaScript: ${initial.join(', ')}: ${initialKb} KiB gzip`);

const server = await startServer();
const browser = await puppeteer.launch({
  executablePath: chromePath,
  args: ['--no-sandbox', '--disable-gpu'],
  defaultViewport: null,
});
let performance = Number.NaN;
let accessibility = Number.NaN;
try {
  const page = await browser.newPage();
  // Sign in through the development issuer's page; the session lives in this tab's sessionStorage, which
  // Lighthouse keeps when told not to reset storage.
  await page.goto(`${server.url}/console/`);
  await Promise.all([page.waitForNavigation(), page.click('button.primary')]);
  await page.click('input[value="demo|owner"]');
  await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  await page.waitForSelector('a[href^="/console/subscriptions/"]');
  const href = await page.$eval('a[href^="/console/subscriptions/"]', (a) => a.getAttribute('href'));
  const url = `${server.url}${href}`;
  const result = await lighthouse(
    url,
    { disableStorageReset: true, onlyCategories: ['performance', 'accessibility'], logLevel: 'error' },
    undefined,
    page,
  );
  performance = Math.round((result?.lhr.categories.performance?.score ?? Number.NaN) * 100);
  accessibility = Math.round((result?.lhr.categories.accessibility?.score ?? Number.NaN) * 100);
  const audits = result?.lhr.audits ?? {};
  console.info(
    `Lighthouse on ${url}: performance ${performance}, accessibility ${accessibility}; ` +
      `FCP ${audits['first-contentful-paint']?.displayValue}, LCP ${audits['largest-contentful-paint']?.displayValue}, ` +
      `TBT ${audits['total-blocking-time']?.displayValue}, CLS ${audits['cumulative-layout-shift']?.displayValue}`,
  );
} finally {
  await browser.close();
  await server.stop();
}

const figures = [
  {
    label: 'console initial JavaScript (gzip)',
    value: initialKb,
    unit: 'KiB',
    target: '≤ 250',
    met: initialKb <= 250,
  },
  {
    label: 'Lighthouse performance, subscription page (mobile preset, Debian Chromium)',
    value: performance,
    unit: 'score',
    target: '≥ 90',
    met: performance >= 90,
  },
  {
    label: 'Lighthouse accessibility, subscription page',
    value: accessibility,
    unit: 'score',
    target: '≥ 95',
    met: accessibility >= 95,
  },
];
const out = fileURLToPath(new URL('../../../bench/results/console.json', import.meta.url));
await writeFile(
  out,
  `${JSON.stringify({ name: 'console', at: new Date().toISOString(), figures }, null, 2)}\n`,
);
console.info('written: bench/results/console.json');
