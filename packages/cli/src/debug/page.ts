/**
 * The page of `connector-cli debug`: the connector runs here, in the browser, in the platform's runtime (QuickJS
 * compiled to WebAssembly), exactly as the console's Try-it runs it. Each method is called with the arguments typed
 * in; media come back as thumbnails, data pages as a table, and every fetch is listed.
 */
import {
  type ConnectorMethod,
  type ConnectorSandbox,
  type FetchRecord,
  type HostFetch,
  type InvocationResult,
  loadConnector,
} from '@platform/runtime';
import { fromBase64, type RelayFailure, type RelayResponse, toBase64 } from './relay-protocol.ts';

type Project = {
  name: string;
  type: 'media' | 'data' | undefined;
  options: Record<string, unknown>;
  via: string;
};

const mediaMethods: ConnectorMethod[] = [
  'query',
  'detail',
  'download',
  'getCapabilities',
  'getConfigurationOptions',
];
const dataMethods: ConnectorMethod[] = [
  'getPage',
  'getModel',
  'getPageItemById',
  'getCapabilities',
  'getConfigurationOptions',
];

/** Arguments each method the page offers starts with: the SDK's parameter order, as JSON. */
const defaultArguments: Partial<Record<ConnectorMethod, unknown[]>> = {
  query: [
    { filter: null, collection: null, pageToken: null, pageSize: 10, sortBy: null, sortOrder: null },
    {},
  ],
  detail: ['id', {}],
  download: ['id', 'thumbnail', 'web', {}],
  getPage: [{ limit: 10, continuationToken: null, previousPageToken: null }, {}],
  getPageItemById: ['id', { limit: 10, sorting: null }, {}],
  getModel: [{}],
  getCapabilities: [],
  getConfigurationOptions: [],
};

const relay: HostFetch = async (request, signal) => {
  const body =
    request.body === undefined
      ? null
      : toBase64(typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body);
  const response = await fetch('/relay', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body,
      redirect: request.redirect,
    }),
    signal,
  });
  const answer = (await response.json()) as RelayResponse | RelayFailure;
  if ('error' in answer) throw new Error(answer.error);
  return { ...answer, body: fromBase64(answer.body) };
};

const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
};

const style = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d2433; background: #f6f7f9; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px; }
h1 { font-size: 20px; margin: 8px 0 2px; } .muted { color: #5b6475; }
form { display: grid; gap: 8px; background: #fff; border: 1px solid #d8dce3; border-radius: 8px; padding: 12px; margin: 12px 0; }
label { font-weight: 600; } textarea { font: 13px ui-monospace, monospace; min-height: 70px; }
button { justify-self: start; padding: 6px 14px; font-weight: 600; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 10px; }
figure { margin: 0; background: #fff; border: 1px solid #d8dce3; border-radius: 6px; padding: 6px; }
figure img { width: 100%; height: 100px; object-fit: contain; background: #eef0f3; } figcaption { font-size: 12px; overflow-wrap: anywhere; }
table { border-collapse: collapse; background: #fff; width: 100%; } th, td { border: 1px solid #d8dce3; padding: 4px 8px; text-align: left; font-size: 13px; }
pre { background: #fff; border: 1px solid #d8dce3; padding: 8px; overflow: auto; max-height: 320px; }
.error { color: #a4161a; font-weight: 600; } section { margin: 14px 0; }
`;

const main = async () => {
  const project = (await (await fetch('/project.json')).json()) as Project;
  const script = await (await fetch('/connector.js')).text();
  const log: FetchRecord[] = [];
  const methods = project.type === 'data' ? dataMethods : mediaMethods;
  const app = document.getElementById('app')!;
  document.head.append(h('style', {}, style));

  const method = h(
    'select',
    { id: 'method', name: 'method' },
    ...methods.map((m) => h('option', { value: m }, m)),
  );
  const args = h('textarea', { id: 'arguments', name: 'arguments', spellcheck: 'false' });
  const options = h('textarea', { id: 'options', name: 'options', spellcheck: 'false' });
  options.value = JSON.stringify(project.options, null, 2);
  const fillArguments = () => {
    args.value = JSON.stringify(defaultArguments[method.value as ConnectorMethod] ?? [], null, 2);
  };
  method.addEventListener('change', fillArguments);
  fillArguments();
  const run = h('button', { type: 'submit', id: 'run' }, 'Run');
  const status = h('p', { id: 'status', role: 'status', class: 'muted' });
  const result = h('section', { id: 'result', 'aria-label': 'Result' });
  const fetches = h('section', { id: 'fetches', 'aria-label': 'Fetches' });
  const form = h(
    'form',
    {},
    h('label', { for: 'method' }, 'Method'),
    method,
    h('label', { for: 'arguments' }, 'Arguments (a JSON array, in the order of the method’s parameters)'),
    args,
    h('label', { for: 'options' }, 'Options (runtime.options)'),
    options,
    run,
  );
  app.replaceChildren(
    h('h1', {}, project.name),
    h('p', { class: 'muted' }, `${project.type ?? 'unknown'} connector · fetches go through ${project.via}`),
    form,
    status,
    result,
    fetches,
  );

  let sandbox: ConnectorSandbox | undefined;
  let sandboxOptions = '';
  const sandboxFor = async (optionsText: string) => {
    if (sandbox && optionsText === sandboxOptions) return sandbox;
    sandbox?.dispose();
    sandbox = await loadConnector({
      script,
      options: JSON.parse(optionsText) as Record<string, unknown>,
      platform: 'web',
      fetch: relay,
      onFetch: (record) => log.push(record),
    });
    sandboxOptions = optionsText;
    return sandbox;
  };
  const call = async (name: ConnectorMethod, values: unknown[]): Promise<InvocationResult> =>
    (await sandboxFor(options.value)).call(name, values);

  const showFetches = () => {
    fetches.replaceChildren(
      h('h2', {}, `Fetches (${log.length})`),
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, ...['Method', 'URL', 'Status', 'Bytes', 'ms'].map((c) => h('th', {}, c)))),
        h(
          'tbody',
          {},
          ...log.map((f) =>
            h(
              'tr',
              {},
              h('td', {}, f.method),
              h('td', {}, f.url),
              h('td', {}, f.error ? `error: ${f.error}` : String(f.status ?? '')),
              h('td', {}, String(f.bytes)),
              h('td', {}, String(Math.round(f.durationMs))),
            ),
          ),
        ),
      ),
    );
  };

  const image = (bytes: Uint8Array, contentType: string, alt: string) =>
    h('img', { src: URL.createObjectURL(new Blob([bytes as BlobPart], { type: contentType })), alt });

  const showMediaPage = async (value: { data?: { id: string; name: string }[] }) => {
    const items = value.data ?? [];
    const grid = h('div', { class: 'grid', 'data-testid': 'thumbnails' });
    result.append(h('h2', {}, `${items.length} media`), grid);
    for (const item of items) {
      const figure = h('figure', {}, h('figcaption', {}, `${item.name} (${item.id})`));
      grid.append(figure);
      try {
        const thumbnail = await call('download', [item.id, 'thumbnail', 'web', {}]);
        if (thumbnail.kind === 'binary')
          figure.prepend(image(thumbnail.bytes, thumbnail.contentType, item.name));
      } catch (error) {
        figure.append(h('p', { class: 'error' }, error instanceof Error ? error.message : String(error)));
      }
    }
  };

  const showRows = (rows: Record<string, unknown>[]) => {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    result.append(
      h('h2', {}, `${rows.length} rows`),
      h(
        'table',
        { 'data-testid': 'rows' },
        h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
        h(
          'tbody',
          {},
          ...rows.map((row) => h('tr', {}, ...columns.map((c) => h('td', {}, String(row[c] ?? ''))))),
        ),
      ),
    );
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const name = method.value as ConnectorMethod;
      log.length = 0;
      result.replaceChildren();
      status.textContent = `Running ${name}…`;
      run.disabled = true;
      const started = performance.now();
      try {
        const values = JSON.parse(args.value) as unknown;
        if (!Array.isArray(values)) throw new Error('the arguments must be a JSON array');
        const outcome = await call(name, values);
        if (outcome.kind === 'binary') {
          result.append(
            h('h2', {}, `${outcome.contentType}, ${outcome.bytes.length} bytes`),
            image(outcome.bytes, outcome.contentType, 'download'),
          );
        } else {
          const value = outcome.value as Record<string, unknown> | null;
          if (name === 'query' && value)
            await showMediaPage(value as { data?: { id: string; name: string }[] });
          if (name === 'getPage' && value && Array.isArray(value.data))
            showRows(value.data as Record<string, unknown>[]);
          result.append(h('pre', { 'data-testid': 'json' }, JSON.stringify(outcome.value, null, 2)));
        }
        status.textContent = `${name} answered in ${Math.round(performance.now() - started)} ms`;
      } catch (error) {
        const code = (error as { code?: string }).code;
        status.replaceChildren(
          h(
            'span',
            { class: 'error' },
            `${code ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      } finally {
        run.disabled = false;
        showFetches();
      }
    })();
  });
  status.textContent = 'Ready: pick a method and run it.';
};

void main().catch((error: unknown) => {
  document.getElementById('app')!.textContent =
    `The debug page failed: ${error instanceof Error ? error.message : String(error)}`;
});
