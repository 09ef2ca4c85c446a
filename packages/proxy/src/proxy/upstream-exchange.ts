import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';

/** The error code of an exchange ended by its total time limit. */
export const EXCHANGE_TIME_LIMIT = 'PROXY_EXCHANGE_TIME_LIMIT';

/** Body bytes held while nobody has claimed the response yet; past this, undici stops reading the socket. */
const pendingLimit = 64 * 1024;
/** An unwanted body (a redirect's, a refused 401's) is read this far to keep the connection, then dropped. */
const discardLimit = 128 * 1024;

/**
 * One request to the target, driven through undici's dispatch handler API so that the target's body goes
 * from undici's parser straight into the caller's ServerResponse. undici's `request()` wraps it in a
 * Readable that is then piped; that Readable, the pipe's listeners and their next-tick hops were most of
 * what the proxy spent per small request beyond the sockets themselves.
 *
 * `started` settles at the response's status line and headers (or the failure before them). Its owner then
 * either `forward`s the body to the caller or `discard`s it; chunks arriving in between are held.
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler {
  statusCode = 0;
  /** The target's reason phrase (`Custom Msg` of `503 Custom Msg`), as Fetch's `statusText` gives it; may be empty. */
  statusText = '';
  headers: IncomingHttpHeaders = {};
  readonly started: Promise<this>;
  #resolve!: (exchange: this) => void;
  #reject!: (error: Error) => void;
  #controller: Dispatcher.DispatchController | undefined;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #ended = false;
  #error: Error | undefined;
  #res: ServerResponse | undefined;
  #endedEarly: ((reason: string) => void) | undefined;
  #discarded = -1;
  #limit: NodeJS.Timeout | undefined;
  #collector: Collector | undefined;

  /**
   * `credentialSent`: whether this hop carried the injected credential (a 401 then is the credential's fault).
   * `url`: the hop's target; `redirected`: whether the proxy followed a redirect to reach it (Fetch's `redirected`).
   */
  constructor(
    readonly credentialSent: boolean,
    readonly url: Readonly<URL>,
    readonly redirected: boolean,
  ) {
    this.started = new Promise<this>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
  }

  /**
   * Ends the exchange once `ms` have passed, wherever it is (docs/connector-proxy.md): undici's timeouts are per
   * step (headers, the gap between two body chunks), so a target trickling a byte now and then would hold it for
   * ever. Before the response head this is a 504; after, the caller's connection is cut.
   */
  limit(ms: number): void {
    this.#limit = setTimeout(() => {
      this.abort(
        Object.assign(new Error(`the exchange took longer than ${ms} ms`), { code: EXCHANGE_TIME_LIMIT }),
      );
    }, ms);
    this.#limit.unref();
  }

  /** Ends the exchange wherever it is, its connection to the target closed: before the response head, `started` fails. */
  abort(error: Error): void {
    if (this.#ended) return;
    if (this.#controller) this.#controller.abort(error);
    else this.onResponseError(undefined as unknown as Dispatcher.DispatchController, error);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    // 1xx (103 Early Hints) come before the real response; the caller gets only that one.
    if (statusCode < 200) return;
    this.#controller = controller;
    this.statusCode = statusCode;
    this.statusText = statusMessage ?? '';
    this.headers = headers;
    this.#resolve(this);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#collector) {
      this.#collector.take(chunk);
    } else if (this.#res) {
      if (!this.#res.write(chunk)) controller.pause();
    } else if (this.#discarded >= 0) {
      this.#discarded += chunk.length;
      if (this.#discarded > discardLimit) controller.abort(new Error('discarded'));
    } else {
      this.#pending.push(chunk);
      this.#pendingBytes += chunk.length;
      if (this.#pendingBytes > pendingLimit) controller.pause();
    }
  }

  onResponseEnd(): void {
    clearTimeout(this.#limit);
    this.#ended = true;
    this.#res?.end();
    this.#collector?.done();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    clearTimeout(this.#limit);
    if (this.statusCode === 0) {
      this.#reject(error);
      return;
    }
    this.#error = error;
    this.#pending = [];
    if (this.#res) this.#cutShort(this.#res, error.message);
    this.#collector?.fail(error);
  }

  /** Sends the body to the caller, whose status line and headers are already written. */
  forward(res: ServerResponse, endedEarly: (reason: string) => void): void {
    this.#endedEarly = endedEarly;
    if (this.#error) {
      this.#cutShort(res, this.#error.message);
      return;
    }
    if (res.destroyed && !this.#ended) {
      // The caller left while the target was still answering.
      this.#controller?.abort(new Error('the caller closed the connection'));
      this.#report('the caller closed the connection');
      return;
    }
    const pending = this.#pending;
    this.#pending = [];
    if (this.#ended) {
      // The usual small response is complete already: one write, headers and body together.
      for (let i = 0; i < pending.length - 1; i++) res.write(pending[i]);
      res.end(pending.at(-1));
      return;
    }
    this.#res = res;
    let writable = true;
    for (const chunk of pending) writable = res.write(chunk);
    res.on('drain', () => this.#controller?.resume());
    res.on('close', () => {
      if (this.#ended || this.#error) return;
      // The caller went away: stop reading from the target (undici drops that connection).
      this.#controller?.abort(new Error('the caller closed the connection'));
      this.#report('the caller closed the connection');
    });
    if (writable) this.#controller?.resume();
  }

  /**
   * Reads the whole body into memory (the in-process adapter), failing with ResponseTooLargeError past `maxBytes`.
   * `signal` stops reading (the caller's deadline).
   */
  collect(maxBytes: number, signal: AbortSignal): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks = this.#pending;
      this.#pending = [];
      let size = chunks.reduce((total, chunk) => total + chunk.length, 0);
      const stop = (error: Error) => {
        this.#collector = undefined;
        if (!this.#ended) this.#controller?.abort(error);
        reject(error);
      };
      const collector: Collector = {
        take: (chunk) => {
          size += chunk.length;
          if (size > maxBytes) stop(new ResponseTooLargeError(maxBytes));
          else chunks.push(chunk);
        },
        done: () => resolve(Buffer.concat(chunks)),
        fail: reject,
      };
      if (this.#error) return reject(this.#error);
      if (size > maxBytes) return stop(new ResponseTooLargeError(maxBytes));
      if (this.#ended) return collector.done();
      if (signal.aborted) return stop(new Error('aborted'));
      signal.addEventListener('abort', () => stop(new Error('aborted')), { once: true });
      this.#collector = collector;
      this.#controller?.resume();
    });
  }

  /** Drops the body (the response is not passed on); a short one is read to the end to keep the connection. */
  discard(): void {
    this.#pending = [];
    if (this.#ended || this.#error) return;
    this.#discarded = 0;
    this.#controller?.resume();
  }

  #cutShort(res: ServerResponse, reason: string): void {
    if (!res.destroyed) res.destroy();
    this.#report(reason);
  }

  #report(reason: string): void {
    const report = this.#endedEarly;
    this.#endedEarly = undefined;
    report?.(reason);
  }
}

type Collector = { take(chunk: Buffer): void; done(): void; fail(error: Error): void };

export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The response body exceeds ${maxBytes} bytes.`);
    this.name = 'ResponseTooLargeError';
  }
}
