/**
 * A token pasted into the API reference's Authorize dialog stays in the page's memory (docs/authentication.md,
 * "Pages in the browser"): after authorizing in Chromium, no web storage of the origin holds it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testBackends } from '@platform/store/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const CHROMIUM = '/usr/bin/chromium';
const chromiumAvailable = await promisify(execFile)(CHROMIUM, ['--version']).then(
  () => true,
  () => false,
);
if (!chromiumAvailable) console.info('[docs token test] skipped: Debian chromium is not installed');

describe.runIf(chromiumAvailable).each((await testBackends()).slice(0, 1))(
  'the API reference in Chromium on $name',
  (backend) => {
    let tp: TestPlatform;
    let browser: Browser;

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await tp?.close();
    });

    it('keeps a pasted token out of localStorage and sessionStorage', async () => {
      const token = await tp.token('auth0|docs-reader', ['platform:read']);
      const page = await browser.newPage();
      await page.goto(`${tp.url}/docs`);
      await page.getByRole('button', { name: 'Authorize' }).first().click();
      const dialog = page.locator('.modal-ux');
      await dialog.locator('input').first().fill(token);
      await dialog.locator('button.modal-btn.authorize').click();
      // The page's Authorize button now shows a closed lock: swagger-ui holds the token.
      await page.locator('.auth-wrapper .authorize.locked').waitFor();
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
      expect(stored).not.toContain(token.slice(-20));
      // A reload forgets it.
      await page.reload();
      await page.getByRole('button', { name: 'Authorize' }).first().waitFor();
      expect(await page.locator('.auth-wrapper .authorize.locked').count()).toBe(0);
      await page.close();
    }, 60_000);
  },
);
