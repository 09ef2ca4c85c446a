/**
 * `runtime.fetch` on the host side: the connector's own Authorization header dropped, `data:` URLs answered here,
 * everything else through the HostFetch port; the fetch count and body size limits; the response shaped as the SDK's
 * ChiliResponse (text, or a pointer whose bytes stay on the host).
 */
import type { QuickJSDeferredPromise } from 'quickjs-emscripten-core';
import { dataUrlBytes, decodeDataUrl, isDataUrl } from './data-url.ts';
import { RuntimeError } from './errors.ts';
import { urlForRecord } from './fetch-record.ts';
import { fileResponse, type HeldFiles, isFileUrl } from './file-pointers.ts';
import { encodeBody, type SandboxBody } from './form-data.ts';
import { type HostMemory, memoryLimit } from './host-memory.ts';
import type { RuntimeLimits } from './limits.ts';
import {
  type FetchRecord,
  type HostFetch,
  type HostFetchResponse,
  isBinaryType,
  type RedirectMode,
} from './types.ts';

/** The state of one running call (or of loading the module). */
export type Invocation = {
  deadline: number;
  fetches: number;
  /** Host operations (fetches, sleeps) the sandbox still waits for. */
  pending: number;
  /** The first limit tripped: it ends the invocation even if the connector catches what it sees. */
  fatal: RuntimeError | undefined;
  /** Tells the sandbox that a limit tripped for this call (it ends the call, and its session). */
  wake: () => void;
  /** Made at the first fetch (most calls of a method make one or none): aborts the fetches when the call ends. */
  controller: AbortController | undefined;
  /** The session's bytes on the host: bodies behind ArrayBufferPointers, counted against its memory limit. */
  memory: HostMemory;
  /** The files handed to `upload`, by FilePointer id (file-pointers.ts). */
  files: HeldFiles;
  /** Sandbox promises for host operations still running; released when the invocation ends. */
  deferreds: Set<QuickJSDeferredPromise>;
  limits: RuntimeLimits;
  hostFetch: HostFetch;
  onFetch: ((record: FetchRecord) => void) | undefined;
  /** Where the invocation's `runtime.logError` messages go. */
  onLogError: ((message: string) => void) | undefined;
  /**
   * Fetches still waiting for their answer, each recording itself as cut short: called when the invocation ends
   * (a limit, the time limit), so that its record lists every fetch it made, not only those that were answered.
   */
  unanswered: Set<() => void>;
};

export type SandboxRequest = {
  method: string;
  headers: Record<string, string>;
  body: SandboxBody | null;
  redirect: RedirectMode;
};

export const performFetch = async (
  invocation: Invocation,
  url: string,
  init: SandboxRequest,
): Promise<string> => {
  const { limits } = invocation;
  if (invocation.fetches >= limits.maxFetches) {
    throw trip(
      invocation,
      new RuntimeError(
        'FETCH_LIMIT',
        `the connector exceeded the fetch limit of ${limits.maxFetches} per invocation (RUNTIME_MAX_FETCHES)`,
      ),
    );
  }
  invocation.fetches += 1;
  const started = performance.now();
  let recorded = false;
  const record = (fields: Omit<FetchRecord, 'method' | 'url' | 'durationMs'>) => {
    if (recorded) return;
    recorded = true;
    invocation.onFetch?.({
      method: init.method,
      url: urlForRecord(url),
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      ...fields,
    });
  };
  const network = !isDataUrl(url) && !isFileUrl(url);
  // Ended by its call before an answer: the request had gone to the upstream (with the usage's credentials, if it
  // has any) when the fetch went through the port.
  const cutShort = () =>
    record({
      status: undefined,
      bytes: 0,
      credentialsInjected: false,
      aborted: true,
      requestSent: network,
      error: 'aborted: the invocation ended first',
    });

  let response: HostFetchResponse;
  // The port stops reading past what the session's memory still holds room for.
  const room = invocation.memory.available();
  invocation.unanswered.add(cutShort);
  try {
    response = network
      ? await viaPort(invocation, url, init, room)
      : isFileUrl(url)
        ? fileResponse(invocation.files, url)
        : dataResponse(url, room, invocation);
    invocation.unanswered.delete(cutShort);
  } catch (error) {
    invocation.unanswered.delete(cutShort);
    const message = error instanceof Error ? error.message : String(error);
    record({ status: undefined, bytes: 0, credentialsInjected: false, error: message });
    if (error instanceof RuntimeError) {
      const past = error.code === 'RESPONSE_TOO_LARGE' && room < limits.maxResponseBytes;
      throw trip(invocation, past ? memoryLimit(invocation.memory.limitBytes) : error);
    }
    throw new TypeError(`fetch failed: ${message}`);
  }
  const bytes = response.kept?.bytes ?? response.body.byteLength;
  if (bytes > limits.maxResponseBytes) {
    response.kept?.release();
    record({ status: response.status, bytes, credentialsInjected: false, error: 'too large' });
    throw trip(invocation, tooLarge(limits));
  }
  record({ status: response.status, bytes, credentialsInjected: response.credentialsInjected ?? false });
  try {
    return JSON.stringify(shape(invocation, response));
  } catch (error) {
    // Not kept by the session (MEMORY_LIMIT): the port's copy goes at once.
    response.kept?.release();
    if (error instanceof RuntimeError) throw trip(invocation, error);
    throw error;
  }
};

const trip = (invocation: Invocation, error: RuntimeError): RuntimeError => {
  invocation.fatal ??= error;
  invocation.controller?.abort(ENDED);
  invocation.wake();
  return error;
};

const tooLarge = (limits: RuntimeLimits) =>
  new RuntimeError(
    'RESPONSE_TOO_LARGE',
    `a response body exceeded the limit of ${Math.round(limits.maxResponseBytes / 1048576)} MiB`,
  );

const viaPort = async (
  invocation: Invocation,
  url: string,
  init: SandboxRequest,
  room: number,
): Promise<HostFetchResponse> => {
  const encoded = await encodeBody(init.body, invocation.files);
  // The connector never authenticates itself: the platform injects the configured credentials (or none). A form's
  // type is always the one its boundary is in; a file's stands unless the connector named one.
  const headers = Object.fromEntries(
    Object.entries(init.headers).filter(
      ([name]) =>
        name.toLowerCase() !== 'authorization' &&
        !(init.body?.kind === 'form' && name.toLowerCase() === 'content-type'),
    ),
  );
  if (
    encoded.contentType !== undefined &&
    !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')
  ) {
    headers['content-type'] = encoded.contentType;
  }
  invocation.controller ??= new AbortController();
  return invocation.hostFetch(
    {
      url,
      method: init.method,
      headers,
      body: encoded.body,
      redirect: init.redirect,
      maxResponseBytes: Math.min(invocation.limits.maxResponseBytes, room),
    },
    invocation.controller.signal,
  );
};

/** Decoded only when its bytes fit the session's memory (and the response size limit): measured first. */
const dataResponse = (url: string, room: number, invocation: Invocation): HostFetchResponse => {
  const size = dataUrlBytes(url);
  if (size > invocation.limits.maxResponseBytes) throw tooLarge(invocation.limits);
  if (size > room) throw memoryLimit(invocation.memory.limitBytes);
  const { contentType, body } = decodeDataUrl(url);
  return {
    status: 200,
    statusText: 'OK',
    url,
    redirected: false,
    headers: { 'content-type': contentType },
    body,
  };
};

/**
 * The reason fetches are aborted with when their call ends: given, it spares creating a DOMException (and its stack)
 * for every call.
 */
export const ENDED = new Error('the connector call ended');

const decoder = new TextDecoder();

const shape = (invocation: Invocation, response: HostFetchResponse) => {
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const contentType = headers['content-type'] ?? 'application/octet-stream';
  const id = invocation.memory.keep(invocation, { contentType, body: response.body, kept: response.kept });
  return {
    ok: response.status >= 200 && response.status < 300,
    redirected: response.redirected,
    status: response.status,
    statusText: response.statusText,
    type: 'default',
    url: response.url,
    headers,
    text: response.kept !== undefined || isBinaryType(contentType) ? '' : decoder.decode(response.body),
    arrayBuffer: { id, bytes: response.kept?.bytes ?? response.body.byteLength },
  };
};
