import { Agent, request } from 'node:http';

/**
 * HTTP requests sent exactly as written (node:http, no URL normalisation): the path goes out verbatim (`..`,
 * `%2e`, malformed escapes), header values may repeat, bodies may be anything with any content type.
 */
export type RawRequest = {
  method: string;
  /** The request target as sent, starting with `/`. */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
};

export type RawReply = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** True when the client gave up reading after `maxBytes`. */
  truncated: boolean;
};

export const MiB = 1024 * 1024;

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** Sends one request; resolves with the reply, or `undefined` when node refuses to send it (invalid header). */
export const sendRaw = (
  base: string,
  req: RawRequest,
  options: { timeoutMs?: number; maxBytes?: number; fresh?: boolean } = {},
): Promise<RawReply | undefined> => {
  const { hostname, port } = new URL(base);
  const maxBytes = options.maxBytes ?? 2 * MiB;
  return new Promise((resolve, reject) => {
    let outgoing: ReturnType<typeof request>;
    try {
      outgoing = request({
        host: hostname,
        port,
        method: req.method,
        path: req.path,
        // A body always goes with its length (node sends none for GET, DELETE and OPTIONS), unless the caller
        // chose the framing itself.
        headers:
          req.body !== undefined && !req.headers?.['transfer-encoding']
            ? { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) }
            : req.headers,
        agent: options.fresh ? false : agent,
        timeout: options.timeoutMs ?? 15_000,
      });
    } catch (error) {
      // Node itself refuses request targets and header values with control characters: nothing was sent.
      if (isClientRefusal(error)) resolve(undefined);
      else reject(error);
      return;
    }
    outgoing.on('timeout', () => outgoing.destroy(new Error(`timeout: ${req.method} ${req.path}`)));
    outgoing.on('error', reject);
    outgoing.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          truncated = true;
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      const done = () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          truncated,
        });
      res.on('end', done);
      res.on('close', done);
    });
    try {
      outgoing.end(req.body);
    } catch (error) {
      if (isClientRefusal(error)) resolve(undefined);
      else reject(error);
    }
  });
};

const isClientRefusal = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return (
    code === 'ERR_INVALID_CHAR' ||
    code === 'ERR_UNESCAPED_CHARACTERS' ||
    code === 'ERR_INVALID_HTTP_TOKEN' ||
    code === 'ERR_HTTP_INVALID_HEADER_VALUE'
  );
};

/**
 * What docs/errors.md demands of every answer: no 5xx (except `allowed`), every error a ProblemDetails with
 * `Content-Type: application/json`, its own status and a W3C `traceId`, and no body larger than `maxBytes`.
 * Returns the violations, empty when the answer is fine.
 */
export const contractViolations = (
  reply: RawReply,
  options: { allowedStatuses?: readonly number[]; maxBytes?: number } = {},
): string[] => {
  const violations: string[] = [];
  const maxBytes = options.maxBytes ?? MiB;
  if (reply.truncated || reply.body.length > maxBytes) violations.push(`body larger than ${maxBytes} bytes`);
  if (reply.status >= 500 && !options.allowedStatuses?.includes(reply.status)) {
    violations.push(`status ${reply.status}`);
  }
  if (reply.status >= 400) {
    const type = String(reply.headers['content-type'] ?? '');
    if (!/^application\/json\b/.test(type)) violations.push(`error content-type "${type}"`);
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      violations.push('error body is not JSON');
    }
    if (body) {
      if (body.status !== reply.status) violations.push(`problem status ${String(body.status)}`);
      if (typeof body.title !== 'string' || typeof body.type !== 'string') {
        violations.push('problem without type/title');
      }
      if (typeof body.traceId !== 'string' || !/^[0-9a-f]{32}$/.test(body.traceId)) {
        violations.push('problem without traceId');
      }
      if (/\bat .+\.(ts|js):\d+|\bselect\b.+\bfrom\b|\binsert into\b/i.test(JSON.stringify(body))) {
        violations.push('problem leaks a stack or SQL text');
      }
    }
  }
  return violations;
};
