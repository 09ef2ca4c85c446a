import { createHash } from 'node:crypto';

/** What the popup hands to the window that opened it (docs/environment-api.md, the authorization-code flow). */
export type RedirectMessage =
  | { type: typeof MESSAGE_TYPE; state: string; code: string }
  | { type: typeof MESSAGE_TYPE; state?: string; error: string };

export const MESSAGE_TYPE = 'grafx-oauth-authorization-code';

/** A page of the operation table's `text/html` operations: its extra headers and markup. */
export type HtmlPage = { headers: Record<string, string>; html: string };

/**
 * The one script of the page, constant so that the Content-Security-Policy can allow it by hash and nothing else.
 * It reads the message and the platform's origin from the inert JSON block and posts to that origin only: a page
 * of another origin that opened the login never receives the code.
 */
const SCRIPT = `const data = JSON.parse(document.getElementById('result').textContent);
if (window.opener) window.opener.postMessage(data.message, data.origin);`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

const HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON that cannot end the script element it sits in. */
const inertJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

export const redirectPage = (options: {
  title: string;
  text: string;
  message: RedirectMessage;
  origin: string;
}): HtmlPage => ({
  headers: HEADERS,
  html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem">
<h1>${escapeHtml(options.title)}</h1>
<p>${escapeHtml(options.text)}</p>
<script type="application/json" id="result">${inertJson({ message: options.message, origin: options.origin })}</script>
<script>${SCRIPT}</script>
</body></html>`,
});
