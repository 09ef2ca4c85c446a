/**
 * The page of `connector-cli debug`: the connector runs here, in the browser, in the platform's runtime (QuickJS
 * compiled to WebAssembly) in a worker of the page's own, exactly as the console's Try-it runs it. Each method is called with the arguments typed
 * in, which start as the calls GraFx Studio's editor makes; media come back as pictures, data pages as a table, and
 * every fetch is listed.
 */
import { downloadDisplay } from '@platform/core/download-display';
import {
  type ConnectorMethod,
  type FetchRecord,
  fromSandboxFailure,
  type InvocationResult,
} from '@platform/runtime';
import type { FromSandbox, ToSandbox } from './sandbox-messages.ts';

type Project = {
  name: string;
  type: 'media' | 'data' | undefined;
  options: Record<string, unknown>;
  via: string;
};

/** A call as GraFx Studio's editor makes it: the method and its arguments (for `upload`, those after the files). */
type StudioCall = { label: string; method: ConnectorMethod; args: unknown[] };

const browse = (collection: string, filter: string) => [
  { collection, pageToken: '', pageSize: 15, filter: [filter] },
  { searchInUploadFolder: false },
];

/**
 * Studio's calls, in the order a developer tries them. A connector whose capabilities say `filtering: false` gets
 * the browse without `filter` from Studio: delete it from the arguments to try that.
 */
const mediaCalls: StudioCall[] = [
  { label: 'query: browse the root', method: 'query', args: browse('/', '') },
  { label: 'query: search (from the root)', method: 'query', args: browse('/', 'term') },
  { label: 'query: open a folder', method: 'query', args: browse('/folder', '') },
  {
    label: 'query: the next page',
    method: 'query',
    args: [{ ...browse('/', '')[0], pageToken: 'token' }, browse('/', '')[1]],
  },
  { label: 'query: look up one asset by id', method: 'query', args: [{ filter: ['id'], pageSize: 1 }, {}] },
  { label: 'detail', method: 'detail', args: ['id', {}] },
  { label: 'download: grid picture (mediumres)', method: 'download', args: ['id', 'mediumres', 'web', {}] },
  { label: 'download: thumbnail', method: 'download', args: ['id', 'thumbnail', 'web', {}] },
  { label: 'download: highres', method: 'download', args: ['id', 'highres', 'web', {}] },
  { label: 'download: fullres for print', method: 'download', args: ['id', 'fullres', 'print', {}] },
  { label: 'download: fullres for animation', method: 'download', args: ['id', 'fullres', 'animation', {}] },
  { label: 'upload (the picked files)', method: 'upload', args: [{}] },
  { label: 'getCapabilities', method: 'getCapabilities', args: [] },
  { label: 'getConfigurationOptions', method: 'getConfigurationOptions', args: [] },
];

const dataCalls: StudioCall[] = [
  { label: 'getPage: the first page', method: 'getPage', args: [{ limit: 50, continuationToken: null }, {}] },
  {
    label: 'getPage: the next page',
    method: 'getPage',
    args: [{ limit: 50, continuationToken: 'token' }, {}],
  },
  {
    label: 'getPage: the previous page',
    method: 'getPage',
    args: [{ limit: 50, previousPageToken: 'token' }, {}],
  },
  { label: 'getPageItemById: a row', method: 'getPageItemById', args: ['id', { limit: 50 }, {}] },
  { label: 'getModel', method: 'getModel', args: [{}] },
  { label: 'getCapabilities', method: 'getCapabilities', args: [] },
  { label: 'getConfigurationOptions', method: 'getConfigurationOptions', args: [] },
];

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
button { justify-self: start; padding: 6px 14px; font-weight: 600; } .actions { margin: 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 10px; }
figure { margin: 0; background: #fff; border: 1px solid #d8dce3; border-radius: 6px; padding: 6px; }
figure img { width: 100%; height: 100px; object-fit: contain; background: #eef0f3; } figcaption { font-size: 12px; overflow-wrap: anywhere; }
table { border-collapse: collapse; background: #fff; width: 100%; } th, td { border: 1px solid #d8dce3; padding: 4px 8px; text-align: left; font-size: 13px; }
pre { background: #fff; border: 1px solid #d8dce3; padding: 8px; overflow: auto; max-height: 320px; }
.error { color: #a4161a; font-weight: 600; } section { margin: 14px 0; }
`;

/** A download as this page may show it (`downloadDisplay`): a raster image, or a link that saves the file. */
const downloaded = (bytes: Uint8Array, contentType: string, name: string) => {
  const display = downloadDisplay(contentType);
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: display.blobType }));
  return display.as === 'image'
    ? h('img', { src: url, alt: name })
    : h('a', { href: url, download: name }, `Save ${name} (${contentType || 'no content type'}, not drawn)`);
};

/** A failure in one line: its stable code, the status a `ConnectorHttpError` carried, the message. */
const failureText = (error: unknown) => {
  const { code, connectorStatus } = (error ?? {}) as { code?: string; connectorStatus?: number };
  const message = error instanceof Error ? error.message : String(error);
  return `${code ? `${code}: ` : ''}${connectorStatus ? `status ${connectorStatus}: ` : ''}${message}`;
};

const main = async () => {
  const project = (await (await fetch('/project.json')).json()) as Project;
  const script = await (await fetch('/connector.js')).text();
  const log: FetchRecord[] = [];
  /** What the connector said with `runtime.logError` during the last call. */
  const said: string[] = [];
  const calls = project.type === 'data' ? dataCalls : mediaCalls;
  const app = document.getElementById('app')!;
  document.head.append(h('style', {}, style));

  const picker = h(
    'select',
    { id: 'method', name: 'method' },
    ...calls.map((c, i) => h('option', { value: String(i) }, c.label)),
  );
  const args = h('textarea', { id: 'arguments', name: 'arguments', spellcheck: 'false' });
  const argsLabel = h('label', { for: 'arguments' });
  const files = h('input', { id: 'files', name: 'files', type: 'file', multiple: '' });
  const filesField = h('p', {}, h('label', { for: 'files' }, 'Upload'), ' ', files);
  const options = h('textarea', { id: 'options', name: 'options', spellcheck: 'false' });
  options.value = JSON.stringify(project.options, null, 2);
  const chosen = () => calls[Number(picker.value)] ?? calls[0]!;
  const fillArguments = () => {
    const call = chosen();
    args.value = JSON.stringify(call.args, null, 2);
    argsLabel.textContent =
      call.method === 'upload'
        ? 'Arguments after the picked files (a JSON array: the context)'
        : 'Arguments (a JSON array, in the order of the method’s parameters)';
    filesField.hidden = call.method !== 'upload';
  };
  picker.addEventListener('change', fillArguments);
  fillArguments();
  const run = h('button', { type: 'submit', id: 'run' }, 'Run');
  const stop = h('button', { type: 'button', id: 'stop', disabled: '' }, 'Stop');
  const status = h('p', { id: 'status', role: 'status', class: 'muted' });
  const result = h('section', { id: 'result', 'aria-label': 'Result' });
  const fetches = h('section', { id: 'fetches', 'aria-label': 'Fetches' });
  const messages = h('section', { id: 'messages', 'aria-label': 'logError' });
  const form = h(
    'form',
    {},
    h('label', { for: 'method' }, 'Method'),
    picker,
    argsLabel,
    args,
    filesField,
    h('label', { for: 'options' }, 'Options (runtime.options)'),
    options,
    h('p', { class: 'actions' }, run, ' ', stop),
  );
  app.replaceChildren(
    h('h1', {}, project.name),
    h(
      'p',
      { class: 'muted' },
      `${project.type ?? 'unknown'} connector · calls as GraFx Studio makes them · fetches go through ${project.via}`,
    ),
    form,
    status,
    result,
    fetches,
    messages,
  );

  /**
   * The sandbox, in a worker of its own (sandbox-worker.ts), so that a connector looping to its time limit leaves the
   * page usable: made for the options as typed, made again when they change, ended by Stop with the call it runs.
   */
  let worker: Worker | undefined;
  let workerOptions = '';
  let sent = 0;
  let waiting:
    | { id: number; resolve: (result: InvocationResult) => void; reject: (error: unknown) => void }
    | undefined;
  const end = (reason: string) => {
    worker?.terminate();
    worker = undefined;
    waiting?.reject(new Error(reason));
    waiting = undefined;
  };
  const workerFor = (optionsText: string): Worker => {
    if (worker && optionsText === workerOptions) return worker;
    const options = JSON.parse(optionsText) as Record<string, unknown>;
    end('the options changed');
    const started = new Worker('/worker.js', { type: 'module' });
    started.onmessage = ({ data }: MessageEvent<FromSandbox>) => {
      const pending = waiting;
      if (pending?.id !== data.id) return;
      if (data.type === 'fetch') log.push(data.record);
      else if (data.type === 'log') said.push(data.message);
      else {
        waiting = undefined;
        if (data.type === 'done') pending.resolve(data.result);
        else pending.reject(fromSandboxFailure(data.failure));
      }
    };
    started.onerror = (event) => {
      event.preventDefault();
      end(`the sandbox stopped: ${event.message}`);
    };
    started.postMessage({ type: 'load', script, options } satisfies ToSandbox);
    worker = started;
    workerOptions = optionsText;
    return started;
  };
  const call = (method: ConnectorMethod, args: unknown[]): Promise<InvocationResult> =>
    new Promise((resolve, reject) => {
      const running = workerFor(options.value);
      waiting = { id: ++sent, resolve, reject };
      running.postMessage({ type: 'call', id: sent, method, args } satisfies ToSandbox);
    });
  stop.addEventListener('click', () => end('Stopped: the sandbox was ended with its call'));

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

  /** A page of media as Studio's browser shows it: each file's mediumres picture; folders are not downloaded. */
  const showMediaPage = async (value: { data?: { id: string; name: string; type?: number }[] }) => {
    const items = value.data ?? [];
    const grid = h('div', { class: 'grid', 'data-testid': 'thumbnails' });
    result.append(h('h2', {}, `${items.length} media`), grid);
    for (const item of items) {
      const figure = h('figure', {}, h('figcaption', {}, `${item.name} (${item.id})`));
      grid.append(figure);
      if (item.type === 1) {
        figure.prepend(h('p', {}, 'Folder'));
        continue;
      }
      try {
        const picture = await call('download', [item.id, 'mediumres', 'web', {}]);
        if (picture.kind === 'binary')
          figure.prepend(downloaded(picture.bytes, picture.contentType, item.name));
      } catch (error) {
        figure.append(h('p', { class: 'error' }, failureText(error)));
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

  const picked = async () =>
    Promise.all(
      [...(files.files ?? [])].map(async (file) => ({
        name: file.name,
        contentType: file.type || 'application/octet-stream',
        bytes: new Uint8Array(await file.arrayBuffer()),
      })),
    );

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const name = chosen().method;
      log.length = 0;
      said.length = 0;
      result.replaceChildren();
      status.textContent = `Running ${name}…`;
      run.disabled = true;
      stop.disabled = false;
      const started = performance.now();
      try {
        const values = JSON.parse(args.value) as unknown;
        if (!Array.isArray(values)) throw new Error('the arguments must be a JSON array');
        const outcome = await call(name, name === 'upload' ? [await picked(), ...values] : values);
        if (outcome.kind === 'binary') {
          result.append(
            h('h2', {}, `${outcome.contentType}, ${outcome.bytes.length} bytes`),
            downloaded(outcome.bytes, outcome.contentType, 'download'),
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
        status.replaceChildren(h('span', { class: 'error' }, failureText(error)));
      } finally {
        run.disabled = false;
        stop.disabled = true;
        showFetches();
        messages.replaceChildren(
          ...(said.length === 0
            ? []
            : [h('h2', {}, `logError (${said.length})`), h('ul', {}, ...said.map((m) => h('li', {}, m)))]),
        );
      }
    })();
  });
  status.textContent = 'Ready: pick a call and run it.';
};

void main().catch((error: unknown) => {
  document.getElementById('app')!.textContent =
    `The debug page failed: ${error instanceof Error ? error.message : String(error)}`;
});
