/**
 * Runs the runtime's public functions under Deno, to prove the package uses Web APIs only (nothing Node-specific).
 * Plain asserts (the test machines reach no registry but npm). Named `*_test.ts` so vitest leaves it to `deno test`.
 */
import { checkScript, loadConnector, RuntimeError } from '../src/index.ts';

const assert = (condition: unknown, message: string): void => {
  if (!condition) throw new Error(`assertion failed: ${message}`);
};

Deno.test('a connector loads, fetches through the port and answers', async () => {
  const sandbox = await loadConnector({
    script: `export default class Connector {
      constructor(runtime) { this.runtime = runtime; }
      async query(options) {
        const response = await this.runtime.fetch('https://api.example.test/items?page=' + options.pageToken);
        return { status: response.status, data: JSON.parse(response.text), platform: this.runtime.platform };
      }
    }`,
    options: {},
    platform: 'web',
    fetch: (request) =>
      Promise.resolve({
        status: 200,
        statusText: 'OK',
        url: request.url,
        redirected: false,
        headers: { 'content-type': 'application/json' },
        body: new TextEncoder().encode('[1,2]'),
      }),
  });
  const result = await sandbox.call('query', [{ pageToken: '2' }, {}]);
  sandbox.dispose();
  assert(result.kind === 'json', 'a JSON result');
  assert(
    JSON.stringify(result.kind === 'json' ? result.value : null) ===
      '{"status":200,"data":[1,2],"platform":"web"}',
    'the value',
  );
});

Deno.test('a loop stops at the deadline and a script without a default class is refused', async () => {
  const sandbox = await loadConnector({
    script: 'export default class C { getModel() { for (;;) {} } }',
    options: {},
    platform: 'server',
    fetch: () => Promise.reject(new Error('no fetch')),
    limits: { timeoutMs: 100 },
  });
  const error = await sandbox.call('getModel', [{}]).catch((caught: unknown) => caught);
  sandbox.dispose();
  assert(error instanceof RuntimeError && error.code === 'TIME_LIMIT', 'TIME_LIMIT');
  const refused = await checkScript('const x = 1;').catch((caught: unknown) => caught);
  assert(refused instanceof RuntimeError && refused.code === 'NO_DEFAULT_CLASS', 'NO_DEFAULT_CLASS');
});
