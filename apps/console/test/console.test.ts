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

if (!chromiumAvailable)
  console.info('[console test] skipped: Debian chromium is not installed (apt-get install chromium)');

type Subscription = { guid: string; displayName: string };
type RenderGroup = { date: string; totalRenders: number; totalWatermarkedRenders: number };

const numbers = async (within: Locator, selector: string) =>
  (await within.locator(selector).allInnerTexts()).map((text) => Number(text.replaceAll(',', '')));

/**
 * The console's acceptance suite: one server (`platform-server start` with demo data and the development issuer),
 * one Chromium, the pages in the order a subscription owner visits them.
 */
describe.runIf(chromiumAvailable)('the console', () => {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  let acme: Subscription;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] }),
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    // What the console logs (a failed sign-in, a render error) belongs in the test's output.
    reportTrouble(page);
    const subscriptions = await server.get<Subscription[]>('/api/v1/subscriptions');
    acme = subscriptions.find((s) => s.displayName === 'Acme') as Subscription;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is served at /console: any page path gives the page, uncached; hashed assets are cached for a year', async () => {
    const pageResponse = await fetch(`${server.url}/console/subscriptions/anything/renders`);
    expect(pageResponse.status).toBe(200);
    expect(pageResponse.headers.get('cache-control')).toBe('no-cache');
    const html = await pageResponse.text();
    expect(html).toContain('&quot;clientId&quot;:&quot;platform-console&quot;');
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const assetResponse = await fetch(`${server.url}${asset}`);
    expect(assetResponse.status).toBe(200);
    expect(assetResponse.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Try it's sandbox worker takes its policy from its own script's answer: the page's.
    expect(assetResponse.headers.get('content-security-policy')).toBe(
      pageResponse.headers.get('content-security-policy'),
    );
    expect((await fetch(`${server.url}/console/assets/missing-0000.js`)).status).toBe(404);
  });

  it('signs in as the demo owner through the development issuer, leaving no code in the URL', async () => {
    const shots = { violations: [] as string[] };
    await signIn(page, server.url, (p) => p.getByRole('radio', { name: /\(demo\|owner\)/ }).check(), shots);
    expect(shots.violations).toEqual([]);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Subscriptions');
    expect(page.url()).not.toMatch(/[?&](code|state)=/);
    const history = await page.evaluate(() => window.history.length);
    expect(history).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('link', { name: 'Acme' }).count()).toBe(1);
    // Keyboard: after a navigation the focus is on the page's heading, and Tab goes on into its content.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Acme');
    await screenshot(page, '01-subscriptions');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a subscription with its quotas as meters, modules and licenses', async () => {
    await page.getByRole('link', { name: 'Acme' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Acme');
    await expect.poll(() => page.getByRole('meter').count()).toBe(6);
    expect(await page.getByRole('meter', { name: 'Templates' }).getAttribute('max')).toBe('500');
    await expect.poll(() => page.getByText(/LIC-101/).count()).toBe(1);
    await screenshot(page, '02-subscription');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('charts render usage: 12 monthly groups, 30 daily ones, the table totals equal to the API', async () => {
    await page.getByRole('link', { name: 'Render usage' }).click();
    // The page's first chart and table are the subscription's only once its usage has loaded: until then, the
    // one environment's renders by kind below it may be the only chart on the page.
    const byEnvironment = (unit: 'month' | 'day') =>
      page.getByRole('region', { name: `Renders per ${unit} by environment` });
    const monthly = byEnvironment('month');
    const chart = monthly.locator('figure.chart');
    await expect.poll(() => chart.locator('.chart-group').count()).toBe(12);
    const api = await server.get<RenderGroup[]>(
      `/api/v1/subscriptions/${acme.guid}/renders?groupBy=year&top=5`,
    );
    const table = monthly.locator('table.render-table');
    const totals = 'tbody [data-total="renders"]';
    expect(await numbers(table, totals)).toEqual(api.map((g) => g.totalRenders));
    expect(await numbers(table, 'tbody [data-total="watermarked"]')).toEqual(
      api.map((g) => g.totalWatermarkedRenders),
    );
    expect(await table.locator('tbody tr').count()).toBe(12);
    await screenshot(page, '03-renders-year');
    expect(await seriousViolations(page)).toEqual([]);

    // top 2: the rest is merged into Others, and the totals still cover every render.
    await page.getByLabel('Environments listed').selectOption('2');
    await expect.poll(() => chart.locator('.legend li').allInnerTexts()).toContain('Others');
    const top2 = await server.get<RenderGroup[]>(
      `/api/v1/subscriptions/${acme.guid}/renders?groupBy=year&top=2`,
    );
    expect(await numbers(table, totals)).toEqual(top2.map((g) => g.totalRenders));

    // A date range: the groups the API gives for it.
    const endDate = api[2]?.date.slice(0, 10) ?? '';
    const startDate = api[0]?.date.slice(0, 10) ?? '';
    await page.getByLabel('From', { exact: true }).fill(startDate);
    await page.getByLabel('To', { exact: true }).fill(endDate);
    await page.getByRole('button', { name: 'Apply range' }).click();
    const ranged = await server.get<RenderGroup[]>(
      `/api/v1/subscriptions/${acme.guid}/renders?groupBy=year&top=2&startDate=${startDate}&endDate=${endDate}`,
    );
    await expect.poll(() => chart.locator('.chart-group').count()).toBe(ranged.length);
    await page.getByRole('button', { name: 'Default range' }).click();
    await page.getByLabel('Environments listed').selectOption('5');

    await page.getByRole('radio', { name: 'Day (a month)' }).check();
    const perDay = byEnvironment('day');
    await expect.poll(() => perDay.locator('figure.chart .chart-group').count()).toBe(30);
    const daily = await server.get<RenderGroup[]>(
      `/api/v1/subscriptions/${acme.guid}/renders?groupBy=month&top=5`,
    );
    await expect
      .poll(() => numbers(perDay.locator('table.render-table'), totals))
      .toEqual(daily.map((g) => g.totalRenders));
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, '04-renders-month-dark');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('lists environments with their storage and finds them by name', async () => {
    await page.getByRole('link', { name: 'Environments' }).click();
    await expect.poll(() => page.locator('table >> nth=0 >> tbody tr').count()).toBe(4);
    await page.getByRole('searchbox', { name: 'Search by name' }).fill('sandbox');
    await expect.poll(() => page.locator('table >> nth=0 >> tbody tr').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search by name' }).fill('');
    await expect.poll(() => page.locator('table >> nth=1 >> tbody td:has-text("…")').count()).toBe(0);
    await screenshot(page, '05-environments');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the users with their roles to the owner', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Users');
    await expect.poll(() => page.getByRole('cell', { name: 'SubscriptionOwner' }).count()).toBe(1);
    await screenshot(page, '06-users');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows the API's error next to a bad domain entry and saves nothing", async () => {
    const before = await server.get<string[]>(`/api/v1/subscriptions/${acme.guid}/external-idp-domains`);
    await page.getByRole('link', { name: 'Identity providers' }).click();
    await expect.poll(() => page.locator('.domain-list li').count()).toBe(before.length);
    await page.getByRole('button', { name: 'Add a domain' }).click();
    await page.getByRole('textbox', { name: `Domain ${before.length + 1}` }).fill('*.bad');
    await page.getByRole('button', { name: 'Save domains' }).click();

    const rest = await fetch(`${server.url}/api/v1/subscriptions/${acme.guid}/external-idp-domains`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify([...before, '*.bad']),
    });
    expect(rest.status).toBe(400);
    const problem = (await rest.json()) as { errors: Record<string, string[]> };
    const expected = problem.errors[`body[${before.length}]`]?.join('; ');
    expect(expected).toBeTruthy();
    const entry = page.locator(`.domain-list li[data-entry="${before.length}"] .field-error`);
    await expect.poll(() => entry.innerText()).toBe(expected);
    expect(await page.locator('.domain-list .field-error').count()).toBe(1);
    expect(await server.get<string[]>(`/api/v1/subscriptions/${acme.guid}/external-idp-domains`)).toEqual(
      before,
    );
    await screenshot(page, '07-idp-domains');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the domains as the server stored them once saved', async () => {
    const before = await server.get<string[]>(`/api/v1/subscriptions/${acme.guid}/external-idp-domains`);
    const field = page.getByRole('textbox', { name: `Domain ${before.length + 1}` });
    await field.fill('München.Example');
    await page.getByRole('button', { name: 'Save domains' }).click();
    await expect.poll(() => page.getByText('Saved.').count()).toBe(1);
    const stored = await server.get<string[]>(`/api/v1/subscriptions/${acme.guid}/external-idp-domains`);
    expect(stored).toContain('xn--mnchen-3ya.example');
    await expect
      .poll(() =>
        page
          .locator('.domain-list input')
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
      )
      .toEqual(stored);
    // Offline, a save fails at once and says why, rather than waiting without a word for the network to return.
    await page.context().setOffline(true);
    try {
      await page.getByRole('button', { name: 'Save domains' }).click();
      await expect
        .poll(() => page.getByRole('alert').innerText())
        .toBe('Nothing was saved: The platform could not be reached: check your connection, then try again.');
    } finally {
      await page.context().setOffline(false);
    }
    // Put the list back as it was for the tests after.
    const reset = await fetch(`${server.url}/api/v1/subscriptions/${acme.guid}/external-idp-domains`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(before),
    });
    expect(reset.status).toBe(200);
  });

  it("sets a static key on a connector's server usage, lists it, and never shows the value again", async () => {
    const secret = `console-secret-${Date.now()}`;
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByRole('link', { name: 'Connectors of Acme Production', exact: true }).click();
    const card = page.locator('article.card').filter({ hasText: 'Demo media' });
    // Headings go down one level at a time: the page (1), each connector (2), its usages (3).
    await expect.poll(() => card.getByRole('heading', { level: 2 }).innerText()).toMatch(/^Demo media/);
    await expect
      .poll(() => card.getByRole('heading', { level: 3 }).allInnerTexts())
      .toEqual(['Server usage', 'Browser usage']);
    const usage = card.getByRole('region', { name: /server usage/ });
    await usage.getByText('Set the authorization').click();
    await usage.getByLabel('Header name').fill('X-Api-Key');
    await usage.getByLabel(/Header value/).fill(secret);
    await usage.getByRole('button', { name: /Save/ }).click();
    await expect.poll(() => usage.locator('[data-usage-auth="server"]').innerText()).toContain('staticKey');
    expect(await usage.getByLabel(/Header value/).inputValue()).toBe('');
    expect(await page.content()).not.toContain(secret);

    const [connector] = (
      await server.get<{ data: { id: string; name: string }[] }>(
        '/grafx/api/v1/environment/acme-prod/connectors',
      )
    ).data.filter((c) => c.name.startsWith('Demo media'));
    const auth = await server.get<{ usage: string; type: string }[]>(
      `/grafx/api/v1/environment/acme-prod/connectors/${connector?.id}/auth`,
    );
    expect(auth).toEqual([expect.objectContaining({ usage: 'server', type: 'staticKey' })]);

    await page.reload();
    await expect.poll(() => usage.locator('[data-usage-auth="server"]').innerText()).toContain('staticKey');
    await usage.getByText('Replace the authorization').click();
    expect(await usage.getByLabel(/Header value/).inputValue()).toBe('');
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, '08-connectors');
    expect(await seriousViolations(page)).toEqual([]);

    // Disable and enable again: the API says so each time.
    const enabledOf = async () =>
      (
        await server.get<{ data: { id: string; enabled: boolean }[] }>(
          '/grafx/api/v1/environment/acme-prod/connectors',
        )
      ).data.find((c) => c.id === connector?.id)?.enabled;
    await card.getByRole('button', { name: /^Disable/ }).click();
    await expect.poll(() => card.locator('.badge').first().innerText()).toBe('disabled');
    expect(await enabledOf()).toBe(false);
    await card.getByRole('button', { name: /^Enable/ }).click();
    await expect.poll(() => card.locator('.badge').first().innerText()).toBe('enabled');
    expect(await enabledOf()).toBe(true);
  });

  it('says a subscription that does not exist could not be found', async () => {
    await page.goto(`${server.url}/console/subscriptions/00000000-0000-4000-8000-000000000000`);
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toMatch(/^This subscription could not be found/);
  });

  it('signs out, and a member without admin roles sees no Users page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);

    let member = '';
    await signIn(page, server.url, async (p) => {
      const labels = await p
        .getByRole('radio')
        .evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).labels?.[0]?.textContent ?? ''));
      const index = labels.findIndex((l) => /SubscriptionMember in Acme/.test(l) && !/Owner|Admin/.test(l));
      expect(index).toBeGreaterThanOrEqual(0);
      member = labels[index] ?? '';
      await p.getByRole('radio').nth(index).check();
    });
    expect(member).toBeTruthy();
    await page.getByRole('link', { name: 'Acme' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Acme');
    await expect.poll(() => page.getByRole('link', { name: 'Identity providers' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await page.goto(`${server.url}/console/subscriptions/${acme.guid}/users`);
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toMatch(/You may not see[\s\S]*SubscriptionOwner or SubscriptionAdmin/);
    await screenshot(page, '09-member-users-forbidden');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
