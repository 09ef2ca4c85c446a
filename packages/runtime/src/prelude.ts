/**
 * What a connector sees, written once as JavaScript evaluated inside the sandbox before the connector's module: the
 * SDK's globals (`ConnectorHttpError`, `sleep`, `StudioFormData`, `FilePointer`) and the `runtime` object handed to
 * `new Default(runtime)`. The host's functions arrive as one argument and stay in this closure; nothing of the host is
 * reachable from the global object. Values cross the boundary as JSON strings, so no host object ever enters.
 *
 * Evaluating the prelude yields a function `(host, platform, sdkVersion) => control`; the host keeps `control`:
 * `load(moduleNamespace, optionsJson)` builds the connector with the published options, `call(method, argsJson,
 * optionsJson)` runs one method and resolves to a JSON string `{value}` | `{missing: true, capability?}` |
 * `{error: {name, message, status}}` (`capability`: the one the connector's capabilities lack for the method);
 * `options(optionsJson)` sets the options of the call that runs next.
 *
 * A fetch body reaches the host described, never as a host object: `{kind: 'text', text}`, `{kind: 'file', id}` (a
 * FilePointer) or `{kind: 'form', entries}` (a StudioFormData, or the string its `toJSON()` gave); form-data.ts makes
 * the bytes.
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

  // A FilePointer made by the runtime, or one a connector copied into a plain object ({id, url, name}).
  const isPointer = (value) =>
    value instanceof FilePointer ||
    (typeof value === 'object' && value !== null && typeof value.id === 'string' && typeof value.url === 'string' && typeof value.name === 'string');

  // What toJSON() yields starts with this key: fetch sends such a string body as the form it describes.
  const FORM_KEY = '$studioFormData';

  let entriesOf;

  class StudioFormData {
    #entries = [];
    append(name, value, filename) {
      const entry = { name: String(name) };
      if (isPointer(value)) {
        entry.pointer = value;
        if (filename !== undefined) entry.filename = String(filename);
      } else {
        entry.value = String(value);
      }
      this.#entries.push(entry);
    }
    set(name, value, filename) {
      const key = String(name);
      const at = this.#entries.findIndex((e) => e.name === key);
      this.delete(key);
      this.append(key, value, filename);
      if (at >= 0) this.#entries.splice(at, 0, this.#entries.pop());
    }
    delete(name) { this.#entries = this.#entries.filter((e) => e.name !== String(name)); }
    #valueOf(entry) { return entry.pointer === undefined ? entry.value : entry.pointer; }
    get(name) { const e = this.#entries.find((e) => e.name === String(name)); return e === undefined ? null : this.#valueOf(e); }
    getAll(name) { return this.#entries.filter((e) => e.name === String(name)).map((e) => this.#valueOf(e)); }
    has(name) { return this.#entries.some((e) => e.name === String(name)); }
    forEach(callback) { for (const e of this.#entries.slice()) callback(this.#valueOf(e), e.name); }
    toJSON() { return JSON.stringify({ [FORM_KEY]: entriesOf(this) }); }
    static {
      // What the host reads (a file part by its pointer's id), kept in this closure rather than on the class.
      entriesOf = (form) =>
        form.#entries.map(({ name, value, pointer, filename }) =>
          pointer === undefined ? { name, value } : { name, file: String(pointer.id), filename });
    }
  }

  const formOfJson = (text) => {
    if (!text.startsWith('{"' + FORM_KEY + '":')) return undefined;
    try {
      const entries = JSON.parse(text)[FORM_KEY];
      return Array.isArray(entries) ? entries : undefined;
    } catch {
      return undefined;
    }
  };

  const bodyOf = (body) => {
    if (body === undefined || body === null) return null;
    if (body instanceof StudioFormData) return { kind: 'form', entries: entriesOf(body) };
    if (isPointer(body)) return { kind: 'file', id: String(body.id) };
    const text = String(body);
    const entries = formOfJson(text);
    return entries === undefined ? { kind: 'text', text } : { kind: 'form', entries };
  };

  const redirectModes = ['follow', 'error', 'manual'];

  const sleep = (ms) => host.sleep(Number(ms) || 0);

  const fetch = (url, init) => {
    const request = init === undefined || init === null ? {} : init;
    const headers = {};
    if (request.headers !== undefined && request.headers !== null) {
      for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
    }
    const redirect = request.redirect === undefined ? 'follow' : String(request.redirect);
    if (!redirectModes.includes(redirect)) {
      return Promise.reject(new TypeError("fetch: redirect must be 'follow', 'error' or 'manual', not '" + redirect + "'"));
    }
    const body = bodyOf(request.body);
    const method = request.method === undefined ? 'GET' : String(request.method).toUpperCase();
    return host.fetch(String(url), JSON.stringify({ method, headers, body, redirect })).then((json) => Object.freeze(JSON.parse(json)));
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

  // The nesting a result may have (the host's rule). QuickJS's JSON.stringify recurses on the host's own stack, which
  // a result nested some ten thousand levels deep overflows before the interpreter's stack check can stop it, taking
  // the instance with it; so the depth is measured first, without recursion, deepest path first (a cycle is as deep
  // as the walk goes).
  const MAX_DEPTH = 1000;
  const deeperThan = (value, limit) => {
    if (typeof value !== 'object' || value === null) return false;
    const nodes = [value];
    const depths = [1];
    while (nodes.length > 0) {
      const node = nodes.pop();
      const depth = depths.pop();
      if (depth > limit) return true;
      for (const child of Object.values(node)) {
        if (typeof child === 'object' && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
    return false;
  };

  // Methods a connector has only when its capabilities say so (the SDK's MediaConnectorUpload, DataSourceVariableCapability).
  const capabilityOf = { upload: 'upload', getPageItemById: 'dataSourceVariable' };

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
        const capability = Object.hasOwn(capabilityOf, method) ? capabilityOf[method] : undefined;
        if (capability !== undefined) {
          const capabilities = await connector.getCapabilities();
          if (capabilities === null || typeof capabilities !== 'object' || capabilities[capability] !== true) {
            return JSON.stringify({ missing: true, capability });
          }
        }
        const args = JSON.parse(argsJson);
        if (method === 'upload' && Array.isArray(args[0])) {
          args[0] = args[0].map((p) => new FilePointer(p.id, p.url, p.name));
        }
        const value = await connector[method](...args);
        if (deeperThan(value, MAX_DEPTH)) return '{"tooDeep":true}';
        return JSON.stringify({ value: value === undefined ? null : value });
      } catch (error) {
        return JSON.stringify({ error: describe(error) });
      }
    },
  });
})`;
