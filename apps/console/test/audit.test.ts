import { type Browser, chromium, type Page } from 'playwright-core';
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

type Subscription = { guid: string; displayName: string };
const SECRET = 'sk-console-audit-5c3e';

/**
 * The Audit page in Chromium: the demo owner changes a connector's credentials and a tag through the API, then reads
 * the trail: newest first, a readable diff with the secret as a fingerprint, a link to the connector, filters, the
 * designed empty state, and paging to older changes.
 */
describe.runIf(chromiumAvailable)('the console Audit page', () => {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  let acme: Subscription;

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return (await response.json().catch(() => undefined)) as { id: string } | undefined;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] }),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    reportTrouble(page);
    acme = (await server.get<Subscription[]>('/api/v1/subscriptions')).find((s) => s.displayName === 'Acme')!;
    const environments = await server.get<{ technicalName: string }[]>(
      `/api/v1/environments?subscriptionId=${acme.guid}`,
    );
    const base = `/grafx/api/v1/environment/${environments[0]!.technicalName}`;
    const connector = await send('POST', `${base}/connectors`, {
      name: 'Audited',
      version: '1.0.0',
      type: 'media',
      script: 'export default class Connector {}',
      allowedDomains: ['api.acme.example'],
    });
    await send('PUT', `${base}/connectors/${connector!.id}/auth/static`, {
      usage: 'server',
      key: 'X-Api-Key',
      value: SECRET,
    });
    // More than a page (50) of changes, so that older ones are paged in.
    for (let i = 0; i < 55; i++) await send('POST', `${base}/tags`, { name: `audit-tag-${i}` });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the changes newest first with readable diffs, secrets as fingerprints and links to the connector', async () => {
    await signIn(page, server.url, (p) => p.getByRole('radio', { name: /\(demo\|owner\)/ }).check());
    await page.goto(`${server.url}/console/subscriptions/${acme.guid}`);
    await page.getByRole('link', { name: 'Audit' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Audit trail');
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    expect(await rows.first().getAttribute('data-action')).toBe('tag.create');
    await expect.poll(() => rows.first().innerText()).toContain('audit-tag-54');
    await page.getByRole('button', { name: 'Older changes' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(50);
    const auth = page.locator('tr[data-action="connector.auth.set"]');
    await expect.poll(() => auth.count()).toBe(1);
    const text = await auth.innerText();
    expect(text).toMatch(/value: — → sha256:[0-9a-f]{8}/);
    expect(text).toContain('demo|owner');
    expect(await page.content()).not.toContain(SECRET);
    expect(await auth.getByRole('link').getAttribute('href')).toMatch(/\/environments\/[^/]+\/connectors$/);
    await screenshot(page, '20-audit');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('filters by action and actor, and says so when nothing matches', async () => {
    await page.getByLabel('Action').selectOption('connector.auth.set');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Actor').fill('nobody|at-all');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByText('No change matches these filters.').count()).toBe(1);
    await screenshot(page, '21-audit-empty');
  });
});
