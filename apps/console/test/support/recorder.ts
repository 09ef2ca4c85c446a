import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One call as the recorder connector received it: the method and its arguments, as JSON, and the path prefix of its
 * `baseUrl` (so one upstream serves several connectors).
 */
export type Received = { prefix: string; method: string; args: unknown[] };

/** What the upstream answers a call: JSON, bytes of a content type, or a failure the connector throws on. */
export type Answer =
  | { json: unknown; logError?: string }
  | { bytes: Uint8Array | string; contentType: string }
  | { status: number; message: string };

/**
 * A connector that hands each call, with its arguments, to a loopback upstream and answers what that upstream says:
 * the upstream records what the connector received, so a test sees exactly the shapes Try it sent. Its capabilities
 * and configuration options are published options (JSON), since `getCapabilities` cannot fetch.
 */
export const RECORDER_SCRIPT = `
export default class Recorder {
  constructor(runtime) { this.runtime = runtime; }
  async send(method, args) {
    const response = await this.runtime.fetch(this.runtime.options.baseUrl + '/call/' + method, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    if (!response.ok) throw new ConnectorHttpError(response.status, response.text);
    return response;
  }
  async json(method, args) {
    const answer = JSON.parse((await this.send(method, args)).text);
    // What the upstream wants said: the connector says it with logError, as a real one reports what it worked around.
    if (answer && answer.logErrorSaid !== undefined) {
      this.runtime.logError(answer.logErrorSaid);
      return answer.value;
    }
    return answer;
  }
  async query(options, context) {
    // A look-up of 'elsewhere' fetches a host outside allowedDomains: the proxy refuses it itself.
    if (options.filter && options.filter[0] === 'elsewhere') await this.runtime.fetch('https://elsewhere.example/asset');
    return this.json('query', [options, context]);
  }
  detail(id, context) { return this.json('detail', [id, context]); }
  async download(id, previewType, intent, context) {
    return (await this.send('download', [id, previewType, intent, context])).arrayBuffer;
  }
  upload(files, context) { return this.json('upload', [files, context]); }
  getPage(config, context) { return this.json('getPage', [config, context]); }
  getPageItemById(id, options, context) { return this.json('getPageItemById', [id, options, context]); }
  getModel(context) { return this.json('getModel', [context]); }
  getCapabilities() { return JSON.parse(this.runtime.options.capabilities); }
  getConfigurationOptions() { return JSON.parse(this.runtime.options.configuration); }
}
`;

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const respond = (res: ServerResponse, answer: Answer) => {
  if ('json' in answer)
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify(
          answer.logError === undefined ? answer.json : { logErrorSaid: answer.logError, value: answer.json },
        ),
      );
  else if ('bytes' in answer) res.writeHead(200, { 'content-type': answer.contentType }).end(answer.bytes);
  else res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.message);
};

/** The recorder's upstream on 127.0.0.1: `answer` decides each call's answer; `received` lists the calls in order. */
export const startRecorderUpstream = async (answer: (call: Received) => Answer) => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const [, prefix = '', method] = /^(\/\w+)?\/call\/(\w+)$/.exec(req.url ?? '') ?? [];
    if (req.method !== 'POST' || !method) {
      res.writeHead(404).end();
      return;
    }
    body(req).then(
      (text) => {
        const call = { prefix, method, args: JSON.parse(text) as unknown[] };
        received.push(call);
        respond(res, answer(call));
      },
      () => res.writeHead(400).end(),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    /** The calls of one method since the last `clear`. */
    of: (method: string) => received.filter((call) => call.method === method),
    clear: () => {
      received.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/**
 * Publishes the recorder connector into `environment` with a static key for the browser usage (the proxy injects it),
 * pointed at `upstream`; its id.
 */
export const publishRecorder = async (params: {
  serverUrl: string;
  token: string;
  environment: string;
  name: string;
  type: 'media' | 'data';
  upstream: string;
  capabilities: Record<string, boolean>;
  configuration?: { name: string; displayName: string; type: 'text' | 'boolean' | 'number' }[];
}): Promise<string> => {
  const api = `${params.serverUrl}/grafx/api/v1/environment/${params.environment}`;
  const headers = { authorization: `Bearer ${params.token}`, 'content-type': 'application/json' };
  const created = await fetch(`${api}/connectors`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: params.name,
      version: '1.0.0',
      type: params.type,
      script: RECORDER_SCRIPT,
      options: {
        baseUrl: params.upstream,
        capabilities: JSON.stringify(params.capabilities),
        configuration: JSON.stringify(params.configuration ?? []),
      },
      allowedDomains: ['127.0.0.1'],
      supportedAuth: ['staticKey'],
    }),
  });
  if (created.status !== 201)
    throw new Error(`publishing ${params.name}: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const auth = await fetch(`${api}/connectors/${id}/auth/static`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ usage: 'browser', key: 'x-recorder-key', value: 'recorder-secret' }),
  });
  if (!auth.ok) throw new Error(`the static key of ${params.name}: ${auth.status} ${await auth.text()}`);
  return id;
};
