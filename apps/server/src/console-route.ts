import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RequestLocals } from '@platform/api';
import express, { type Express, type Response } from 'express';

export const CONSOLE_PATH = '/console';

/** The console's build output: `vite build` of apps/console (run by `npm run build`, hence by `npm ci`). */
const consoleDist = (): string =>
  join(dirname(createRequire(import.meta.url).resolve('@platform/console/package.json')), 'dist');

const attribute = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? '&#39;');

/** What the console reads from its page at start (`<meta name="platform-console-config">`). */
export type ConsoleSettings = { issuer: string; clientId: string };

/**
 * Serves the console at /console (docs/configuration.md): hashed assets with a year's cache, every other path
 * under /console answered with index.html (the console routes in the browser), never cached, carrying the issuer
 * and client id. Without a build, /console says how to make one.
 */
export const loadConsole = async (settings: ConsoleSettings): Promise<(app: Express) => void> => {
  const dist = consoleDist();
  const template = await readFile(join(dist, 'index.html'), 'utf8').catch(() => undefined);
  const mark = (res: Response) => {
    (res.locals as RequestLocals).route = CONSOLE_PATH;
  };
  if (template === undefined) {
    return (app) =>
      app.get([CONSOLE_PATH, `${CONSOLE_PATH}/*path`], (_req, res) => {
        mark(res);
        res
          .status(503)
          .type('text/plain')
          .send('The console is not built: run `npm run build` (npm ci does it), then restart the server.\n');
      });
  }
  const index = template.replace('content="{}"', `content="${attribute(JSON.stringify(settings))}"`);
  const issuerOrigin = new URL(settings.issuer).origin;
  const policy = [
    "default-src 'self'",
    // Try it runs connectors in QuickJS compiled to WebAssembly: compiling WebAssembly is allowed, eval of JavaScript not.
    "script-src 'self' 'wasm-unsafe-eval'",
    // React sets `style` attributes (bar widths, chart colors).
    "style-src 'self' 'unsafe-inline'",
    // Try it shows the pictures a connector downloaded as blob: URLs.
    "img-src 'self' data: blob:",
    `connect-src 'self' ${issuerOrigin}`,
    `form-action 'self' ${issuerOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
  ].join('; ');

  return (app) => {
    app.use(
      `${CONSOLE_PATH}/assets`,
      (_req, res, next) => {
        mark(res);
        // A worker's script brings its own policy (Try it's sandbox worker): the page's, so that it too may fetch
        // from the platform only.
        res.set('Content-Security-Policy', policy);
        next();
      },
      express.static(join(dist, 'assets'), {
        index: false,
        // File names carry a content hash: a new build has new names.
        immutable: true,
        maxAge: '365d',
      }),
    );
    app.get([CONSOLE_PATH, `${CONSOLE_PATH}/*path`], (req, res, next) => {
      mark(res);
      // A file name (favicon.svg) is served from the build below, or is a 404: never the page.
      if (/\.[a-z0-9]+$/i.test(req.path) && !req.path.endsWith('.html')) {
        next();
        return;
      }
      res
        .set('Cache-Control', 'no-cache')
        .set('Content-Security-Policy', policy)
        .set('X-Frame-Options', 'DENY')
        .set('Referrer-Policy', 'no-referrer')
        .set('X-Content-Type-Options', 'nosniff')
        .type('text/html')
        .send(index);
    });
    app.use(CONSOLE_PATH, express.static(dist, { index: false, maxAge: '1h' }));
  };
};
