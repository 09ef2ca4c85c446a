import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Oidc, startOidc } from '@platform/proxy/testing';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTarget, type Target } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import {
  authorizationCodeBody,
  connectorBody,
  connectorsPath,
  expectStatus,
  platformClient,
} from './support.ts';

const CHROMIUM = '/usr/bin/chromium';
const chromiumAvailable = await promisify(execFile)(CHROMIUM, ['--version']).then(
  () => true,
  () => false,
);
if (!chromiumAvailable)
  console.info(
    '[authorization-code browser test] skipped: Debian chromium is not installed (apt-get install chromium)',
  );

type Received = { origin: string; data: Record<string, unknown> } | undefined;

/** In `page`: opens `url` in a popup and resolves with the first message posted to this window, or undefined. */
const openAndListen = (page: Page, url: string, waitMs: number): Promise<Received> =>
  page.evaluate(
    ({ url, waitMs }) =>
      new Promise<Received>((resolve) => {
        window.addEventListener('message', (event) => resolve({ origin: event.origin, data: event.data }), {
          once: true,
        });
        setTimeout(() => resolve(undefined), waitMs);
        window.open(url, 'grafx-login', 'popup,width=480,height=640');
      }),
    { url, waitMs },
  );

describe.runIf(chromiumAvailable).each((await testBackends()).slice(0, 1))(
  'the authorization-code popup in Chromium on $name',
  (backend) => {
    let tp: TestPlatform;
    let oidc: Oidc;
    let target: Target;
    let browser: Browser;
    let id: string;
    const user = { user: USERS.contentUser, roles: ['platform:read', 'platform:write'] };
    const { rest, proxy, tokenOf } = platformClient(() => tp);
    const base = () => `${tp.url}${connectorsPath}/${id}/auth/oauth-authorization-code`;

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      await importDataFile(tp.database, fixture(new Date()));
      target = await startTarget();
      const published = await rest<{ id: string }>('POST', connectorsPath, {
        user: USERS.owner,
        body: connectorBody(),
      });
      expectStatus(published, 201);
      id = published.body.id;
      oidc = await startOidc([`${base()}/redirect`], 'client_secret_basic');
      const set = await rest('PUT', `${connectorsPath}/${id}/auth/oauth-authorization-code`, {
        user: USERS.owner,
        body: authorizationCodeBody(oidc),
      });
      expectStatus(set, 200);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await tp?.close();
      await Promise.all([oidc?.close(), target?.close()]);
    });

    it('login → popup at the provider → the page posts {state, code} to the opener → the opener completes', async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        // The opener: any page of the platform's origin (the console, an application served there).
        await page.goto(`${tp.url}/api/ping`);
        const token = await tokenOf(user);
        const { authorizationUrl } = await page.evaluate(
          async ({ base, token }) =>
            (
              await fetch(`${base}/login`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
            ).json(),
          { base: base(), token },
        );
        const popupOpened = page.waitForEvent('popup');
        const message = openAndListen(page, authorizationUrl, 45_000);
        const popup = await popupOpened;
        // The provider's own login and consent pages (oidc-provider's development interactions).
        await popup.locator('input[name="login"]').fill('alice-at-provider');
        await popup.locator('input[name="password"]').fill('any');
        await popup.locator('button[type="submit"]').click();
        await popup.locator('button[type="submit"]').click();
        const received = await message;
        expect(received?.origin).toBe(new URL(tp.url).origin);
        expect(received?.data).toMatchObject({
          type: 'grafx-oauth-authorization-code',
          state: new URL(authorizationUrl).searchParams.get('state'),
          code: expect.any(String),
        });
        expect(popup.url()).toContain('/auth/oauth-authorization-code/redirect?');
        expect(await popup.title()).toBe('Sign-in received');

        const status = await page.evaluate(
          async ({ base, token, data }) =>
            (
              await fetch(`${base}/complete`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ state: data.state, code: data.code }),
              })
            ).status,
          { base: base(), token, data: received?.data ?? {} },
        );
        expect(status).toBe(204);
        expectStatus(await proxy(id, { ...user, url: `${target.url}/browser` }), 200);
        expect(target.last('/browser')?.headers.authorization).toBe(`Bearer ${oidc.issued.at(-1)}`);
      } finally {
        await context.close();
      }
    }, 90_000);

    it('an invalid callback tells the opener the error; a window of another origin is told nothing', async () => {
      const context = await browser.newContext();
      try {
        const callback = `${base()}/redirect?state=unknown&code=stolen`;
        const foreign = await context.newPage();
        await foreign.goto(`${oidc.issuer}/.well-known/openid-configuration`);
        expect(await openAndListen(foreign, callback, 2_000)).toBeUndefined();

        const own = await context.newPage();
        await own.goto(`${tp.url}/api/ping`);
        const popupOpened = own.waitForEvent('popup');
        const received = await openAndListen(own, callback, 20_000);
        expect(received).toEqual({
          origin: new URL(tp.url).origin,
          data: { type: 'grafx-oauth-authorization-code', error: 'invalid_state' },
        });
        const popup = await popupOpened;
        expect(await popup.title()).toBe('Sign-in link not valid');
        expect(await popup.locator('body').innerText()).toContain('start the sign-in again');
      } finally {
        await context.close();
      }
    }, 60_000);
  },
);
