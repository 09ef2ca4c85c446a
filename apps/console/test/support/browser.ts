import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const chromiumAvailable = await promisify(execFile)(CHROMIUM, ['--version']).then(
  () => true,
  () => false,
);

/**
 * What goes wrong in the page (its errors, uncaught exceptions and answers of 400 and above) in the test's output,
 * so that a step that times out says what the page met on the way.
 */
export const reportTrouble = (page: Page) => {
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[browser] ${message.text()}`);
  });
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) console.error(`[browser] ${response.status()} ${response.url()}`);
  });
};

/** Screenshots of every page, kept as test artifacts (gitignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));
await mkdir(SCREENSHOTS, { recursive: true });

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });

/** axe-core's serious and critical violations on the page as it is now (rule id and the first target). */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
};

/**
 * Signs in through the development issuer's page as the user `pickUser` picks; with `shots`, keeps screenshots of
 * the console's sign-in page and the issuer's page, axe-checked like every page.
 */
export const signIn = async (
  page: Page,
  url: string,
  pickUser: (page: Page) => Promise<void>,
  shots?: { violations: string[] },
) => {
  await page.goto(`${url}/console/`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  if (shots) {
    await screenshot(page, '00-sign-in');
    shots.violations.push(...(await seriousViolations(page)));
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/oauth\/authorize/);
  await pickUser(page);
  if (shots) {
    await screenshot(page, '00-development-issuer');
    shots.violations.push(...(await seriousViolations(page)));
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/console') && !u.pathname.endsWith('/callback'));
};
