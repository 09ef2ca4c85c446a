/**
 * Connectors of the project's own for the end-to-end tests, written against the connector SDK's interface and
 * modelled on how real ones behave (JSON APIs with paging, a binary download through the returned pointer, errors as
 * ConnectorHttpError). `base` is the loopback stand-in's URL, from the published options.
 */

/** A DAM on client credentials: JSON query and detail, a binary download. */
export const mediaConnector = `
export default class DamConnector {
  constructor(runtime) { this.runtime = runtime; }
  async query(options, context) {
    const page = options.pageToken ? Number(options.pageToken) : 0;
    const url = this.runtime.options.base + '/assets?page=' + page + '&size=' + options.pageSize +
      (options.filter && options.filter[0] ? '&q=' + encodeURIComponent(options.filter[0]) : '');
    const response = await this.runtime.fetch(url, { method: 'GET', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new ConnectorHttpError(response.status, 'query failed: ' + response.status);
    const body = JSON.parse(response.text);
    return {
      pageSize: options.pageSize,
      data: body.items.map((item) => ({ id: item.id, name: item.name, relativePath: '/', type: 0, metaData: {} })),
      links: { nextPage: body.next === null ? '' : String(body.next) },
    };
  }
  async detail(id, context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/assets/' + id, { method: 'GET' });
    if (!response.ok) throw new ConnectorHttpError(response.status, 'no asset ' + id);
    const item = JSON.parse(response.text);
    return { id: item.id, name: item.name, relativePath: '/', type: 0, metaData: { kind: item.kind }, width: item.width };
  }
  async download(id, previewType, intent, context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/files/' + id + '?size=' + previewType, {
      method: 'GET',
      headers: { 'X-GraFx-Proxy-User-Agent': 'dam-connector/1.0' },
    });
    if (!response.ok) throw new ConnectorHttpError(response.status, 'download failed');
    return response.arrayBuffer;
  }
  getConfigurationOptions() { return [{ name: 'base', displayName: 'API base', type: 'text' }]; }
  getCapabilities() { return { query: true, detail: true, filtering: true, metadata: true }; }
}
`;

/** A table behind a static key: pages with a continuation token, and a model. */
export const dataConnector = `
export default class TableConnector {
  constructor(runtime) { this.runtime = runtime; }
  async getPage(config, context) {
    const offset = config.continuationToken ? Number(config.continuationToken) : 0;
    const response = await this.runtime.fetch(
      this.runtime.options.base + '/rows?offset=' + offset + '&limit=' + config.limit, { method: 'GET' });
    if (!response.ok) throw new ConnectorHttpError(response.status, 'rows failed');
    const body = JSON.parse(response.text);
    return { data: body.rows, continuationToken: body.next === null ? null : String(body.next) };
  }
  async getModel(context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/model', { method: 'GET' });
    return { properties: JSON.parse(response.text).columns.map((name) => ({ name, type: 'singleLine' })) };
  }
  getConfigurationOptions() { return null; }
  getCapabilities() { return { filtering: false, sorting: false, model: true }; }
}
`;

/** A data connector whose `getModel` runs `body` (its `this.runtime` at hand) and whose pages are empty. */
export const modelConnector = (body: string) => `export default class Model {
  constructor(runtime) { this.runtime = runtime; }
  async getModel(context) { ${body} }
  async getPage(config, context) { return { data: [], continuationToken: null }; }
}`;

export const hostileConnectors = {
  endlessLoop: modelConnector('for (;;) {}'),
  memoryBomb: modelConnector("const kept = []; for (;;) kept.push(new Array(100000).fill('x'));"),
  deepRecursion: modelConnector('const down = (n) => down(n + 1) + 1; return down(0);'),
  manyFetches: modelConnector(
    "await Promise.all(Array.from({ length: 150 }, (_, i) => this.runtime.fetch(this.runtime.options.base + '/model?i=' + i)));",
  ),
  disallowedHost: modelConnector("await this.runtime.fetch('https://not-allowed.example/steal'); return {};"),
  followsRedirect: modelConnector(
    "const r = await this.runtime.fetch(this.runtime.options.base + '/moved'); return { status: r.status, redirected: r.redirected, url: r.url };",
  ),
  ownAuthorization: modelConnector(
    "const r = await this.runtime.fetch(this.runtime.options.base + '/model', { headers: { Authorization: 'Bearer forged' } }); return { status: r.status };",
  ),
};

export const notAModule = 'function connector() { return 1; }';
