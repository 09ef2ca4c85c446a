/**
 * The runtime's ports and results. `HostFetch` is the one way out of the sandbox: on the server it is the proxy's
 * exchange in process, in a browser the proxy route over HTTP, in the CLI a local relay.
 */
export type HostFetchRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /**
   * Fetch's `redirect`: `follow` (every hop checked as the first), `error` (a redirect fails the fetch) or `manual`
   * (the redirect itself is the answer).
   */
  redirect?: RedirectMode;
  /** The port may stop reading a body past this many bytes (the runtime refuses it anyway). */
  maxResponseBytes: number;
};

export const redirectModes = ['follow', 'error', 'manual'] as const;
export type RedirectMode = (typeof redirectModes)[number];

export type HostFetchResponse = {
  status: number;
  statusText: string;
  url: string;
  redirected: boolean;
  headers: Record<string, string>;
  body: Uint8Array;
  /**
   * A body the port keeps outside the runtime, `body` then empty: the server's event loop keeps a body the sandbox
   * never reads as text (isBinaryType) rather than copy it to the worker thread and back, and the runtime counts its
   * length against the session's memory all the same. `release` is called once no pointer of the runtime names it
   * any more (after the answer of a `download` that returned it: InvocationResult `kept`, whose bytes the host answers).
   */
  kept?: KeptElsewhere | undefined;
  /** Whether the port added the connector's credentials (the activity log shows it). */
  credentialsInjected?: boolean;
};

export type KeptElsewhere = { ref: string; bytes: number; release: () => void };

/**
 * Throws `RuntimeError('FETCH_REFUSED' | 'RESPONSE_TOO_LARGE')` for a refusal; any other throw is a network failure.
 * `signal` ends the fetch wherever it is; `sent`, when given, is told as the request goes out (and again for each
 * redirect followed), with whether it carries the connector's credentials: what an aborted fetch's record says.
 */
export type HostFetch = (
  request: HostFetchRequest,
  signal: AbortSignal,
  sent?: (credentialsInjected: boolean) => void,
) => Promise<HostFetchResponse>;

/** One fetch as the activity log and the debug page show it (never a secret, never query values). */
export type FetchRecord = {
  method: string;
  url: string;
  status: number | undefined;
  bytes: number;
  durationMs: number;
  credentialsInjected: boolean;
  error?: string;
  /** Ended with its call before it was answered: aborted, its upstream connection closed. */
  aborted?: boolean;
  /**
   * For an aborted fetch: whether its request had gone to the upstream, with the usage's credentials if it has any
   * (`credentialsInjected` is only known from an answer).
   */
  requestSent?: boolean;
};

export const connectorMethods = [
  'query',
  'detail',
  'download',
  'getPage',
  'getModel',
  'getPageItemById',
  'upload',
  'getCapabilities',
  'getConfigurationOptions',
] as const;

export type ConnectorMethod = (typeof connectorMethods)[number];

/**
 * One file handed to `upload`: its bytes stay on the host for the invocation, and the connector gets a `FilePointer
 * {id, url, name}` in its place (file-pointers.ts).
 */
export type UploadFile = { name: string; contentType: string; bytes: Uint8Array };

export type InvocationResult =
  | { kind: 'json'; value: unknown }
  /** download: the bytes behind the returned ArrayBufferPointer, with the upstream's content type. */
  | {
      kind: 'binary';
      contentType: string;
      bytes: Uint8Array;
      /** The port kept these bytes (HostFetchResponse `kept`): `bytes` is empty, the host answers its own copy. */
      kept?: string | undefined;
    };

export type Platform = 'server' | 'web';

/** Content types whose body the connector gets as a pointer only (`text` empty). */
export const isBinaryType = (contentType: string): boolean =>
  /^(image|font)\/|^application\/pdf\b/i.test(contentType.trim());
