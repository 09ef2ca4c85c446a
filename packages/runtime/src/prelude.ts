/**
 * What a connector sees, written once as JavaScript evaluated inside the sandbox before the connector's module: the
 * SDK's globals (`ConnectorHttpError`, `sleep`, `StudioFormData`, `FilePointer`) and the `runtime` object handed to
 * `new Default(runtime)`. The host's functions arrive as one argument and stay in this closure; nothing of the host is
 * reachable from the global object. Values cross the boundary as JSON strings, so no host object ever enters.
 *
 * Evaluating the prelude yields a function `(host, platform, sdkVersion) => control`; the host keeps `control`:
 * `load(moduleNamespace, optionsJson)` builds the connector with the published options, `call(method, argsJson,
 * optionsJson)` runs one method and resolves to a JSON string `{value}` | `{missing: true}` |
 * `{error: {name, message, status}}`; `options(optionsJson)` sets the options of the call that runs next.
 */
export const prelude = String.raw`(function (host, platform, sdkVersion) {
  'use strict';

  class ConnectorHttpError extends Error {
    constructor(status, message) {
      super(message === undefined ? 'HTTP error ' + status : String(message));
      this.name = 'ConnectorHttpError';
      this.status = Number(status);
    }
  }

  class FilePointer {
    constructor(id, url, name) {
      this.id = String(id);
      this.url = String(url);
      this.name = String(name);
    }
  }

  class StudioFormData {
    #entries = [];
    append(name, value) { this.#entries.push([String(name), value instanceof FilePointer ? value : String(value)]); }
    set(name, value) { this.delete(name); this.append(name, value); }
    delete(name) { this.#entries = this.#entries.filter(([n]) => n !== String(name)); }
    get(name) { const e = this.#entries.find(([n]) => n === String(name)); return e === undefined ? null : e[1]; }
    getAll(name) { return this.#entries.filter(([n]) => n === String(name)).map(([, v]) => v); }
    has(name) { return this.#entries.some(([n]) => n === String(name)); }
    entries() { return this.#entries.map(([n, v]) => [n, v])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
  }

  const multipart = (form) => {
    const boundary = '----studio-form-' + Math.random().toString(16).slice(2);
    let body = '';
    for (const [name, value] of form) {
      if (value instanceof FilePointer) throw new TypeError('StudioFormData: file parts are not supported by this runtime');
      body += '--' + boundary + '\r\nContent-Disposition: form-data; name="' + name.replace(/"/g, '%22') + '"\r\n\r\n' + value + '\r\n';
    }
    return { body: body + '--' + boundary + '--\r\n', contentType: 'multipart/form-data; boundary=' + boundary };
  };

  const sleep = (ms) => host.sleep(Number(ms) || 0);

  const fetch = (url, init) => {
    const request = init === undefined || init === null ? {} : init;
    const headers = {};
    if (request.headers !== undefined && request.headers !== null) {
      for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
    }
    let body = request.body === undefined || request.body === null ? null : request.body;
    if (body instanceof StudioFormData) {
      const encoded = multipart(body);
      body = encoded.body;
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = encoded.contentType;
    } else if (body !== null) {
      body = String(body);
    }
    const method = request.method === undefined ? 'GET' : String(request.method).toUpperCase();
    return host.fetch(String(url), JSON.stringify({ method, headers, body })).then((json) => Object.freeze(JSON.parse(json)));
  };

  const logError = (message) => { host.logError(String(message)); };

  const options = {};
  const runtime = Object.freeze({ options, fetch, logError, platform, sdkVersion });

  Object.defineProperties(globalThis, {
    ConnectorHttpError: { value: ConnectorHttpError, writable: true, configurable: true },
    FilePointer: { value: FilePointer, writable: true, configurable: true },
    StudioFormData: { value: StudioFormData, writable: true, configurable: true },
    sleep: { value: sleep, writable: true, configurable: true },
  });

  let connector;

  const describe = (error) => {
    // QuickJS throws null when it cannot even allocate its out-of-memory error: the host reads null as the memory limit.
    if (error === null) return null;
    if (error instanceof Error) {
      const status = error instanceof ConnectorHttpError || error.name === 'ConnectorHttpError' ? Number(error.status) : undefined;
      return { name: error.name, message: error.message, status };
    }
    return { name: 'Error', message: String(error) };
  };

  return Object.freeze({
    load(namespace, optionsJson) {
      // The constructor already sees the published options (each call then lays its own over them).
      Object.assign(options, JSON.parse(optionsJson));
      const Default = namespace.default;
      if (typeof Default !== 'function' || Default.prototype === undefined) return JSON.stringify({ missing: true });
      try {
        connector = new Default(runtime);
      } catch (error) {
        return JSON.stringify({ error: describe(error) });
      }
      return JSON.stringify({});
    },
    options(optionsJson) {
      // Calls of one session interleave: each runs with its own options whenever it runs.
      for (const key of Object.keys(options)) delete options[key];
      Object.assign(options, JSON.parse(optionsJson));
    },
    async call(method, argsJson, optionsJson) {
      for (const key of Object.keys(options)) delete options[key];
      Object.assign(options, JSON.parse(optionsJson));
      if (typeof connector[method] !== 'function') return JSON.stringify({ missing: true });
      try {
        const value = await connector[method](...JSON.parse(argsJson));
        return JSON.stringify({ value: value === undefined ? null : value });
      } catch (error) {
        return JSON.stringify({ error: describe(error) });
      }
    },
  });
})`;
