import { restRoutes } from './contract.generated.ts';
import { PlatformApiError, type PlatformProblem } from './rest-error.ts';
import { authorizationHeader, type TokenSource } from './token.ts';
import type { RouterInputs, RouterOutputs } from './trpc-client.ts';

type OperationId = keyof typeof restRoutes;
type Split<Id> = Id extends `${infer A}.${infer V}` ? [A, V] : never;
type InputOf<Id> =
  Split<Id> extends [infer A extends keyof RouterInputs, infer V]
    ? V extends keyof RouterInputs[A]
      ? RouterInputs[A][V]
      : never
    : never;
type OutputOf<Id> =
  Split<Id> extends [infer A extends keyof RouterOutputs, infer V]
    ? V extends keyof RouterOutputs[A]
      ? RouterOutputs[A][V]
      : never
    : never;

export type RequestOptions = { signal?: AbortSignal };

/** One REST endpoint: path and query parameters by name, plus `body`; the input may be left out when all are optional. */
export type RestMethod<I, O> =
  Record<string, never> extends I
    ? (input?: I, options?: RequestOptions) => Promise<O>
    : (input: I, options?: RequestOptions) => Promise<O>;

/** The REST API with the shape of the tRPC client: `rest.subscriptions.renders({ subscriptionId, groupBy })`. */
export type RestClient = {
  [A in Split<OperationId>[0]]: {
    [Id in OperationId as Split<Id>[0] extends A ? Split<Id>[1] : never]: RestMethod<
      InputOf<Id>,
      OutputOf<Id>
    >;
  };
};

export type RestClientOptions = {
  /** Where the platform answers, such as `https://admin.example.com`. */
  baseUrl: string;
  token?: TokenSource;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
};

const problemOf = async (response: Response): Promise<PlatformProblem> => {
  const text = await response.text();
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as PlatformProblem;
  } catch {
    // Not JSON (a proxy in between answered): the status alone describes the error.
  }
  return { status: response.status, detail: text || response.statusText };
};

type FileInput = { name: string; contentType?: string; base64: string };

/**
 * A body the route takes as multipart/form-data: each of `files` as a file part named `field` (its bytes decoded from
 * base64, with its name and type), every other field as a JSON text part.
 */
const formOf = (field: string, body: unknown): FormData => {
  const form = new FormData();
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (name !== 'files') {
      if (value !== undefined) form.append(name, JSON.stringify(value));
      continue;
    }
    for (const file of value as FileInput[]) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      form.append(
        field,
        new Blob([bytes], { type: file.contentType ?? 'application/octet-stream' }),
        file.name,
      );
    }
  }
  return form;
};

/**
 * A path parameter as one segment. A segment of `.` or `..` alone (an external media id may be one) cannot be sent:
 * the URL resolves it away however its dots are escaped (`%2E` included), and the request would reach another path.
 * It is refused before anything is sent; the tRPC client carries such a value in its input.
 */
const pathSegment = (name: string, value: string): string => {
  const encoded = encodeURIComponent(value);
  if (encoded === '.' || encoded === '..')
    throw new RangeError(
      `${name} "${value}" cannot be sent in a URL path (a URL resolves "." and ".." segments away); use the tRPC client for it`,
    );
  return encoded;
};

/** A typed REST client over `fetch`; error answers throw {@link PlatformApiError} with their ProblemDetails. */
export const createRestClient = (options: RestClientOptions): RestClient => {
  const base = options.baseUrl.replace(/\/$/, '');
  const call = async (id: OperationId, input: unknown, init: RequestOptions | undefined) => {
    const route = restRoutes[id];
    const values = (input ?? {}) as Record<string, unknown>;
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      pathSegment(name, String(values[name])),
    );
    const query = new URLSearchParams();
    for (const name of route.query as readonly string[]) {
      const value = values[name];
      if (value !== undefined && value !== null) query.set(name, String(value));
    }
    const hasBody = 'body' in values;
    const form = 'form' in route ? route.form : undefined;
    const response = await (options.fetch ?? fetch)(`${base}${path}${query.size ? `?${query}` : ''}`, {
      method: route.method,
      headers: {
        accept: 'application/json',
        // A form's type, with its boundary, is the one fetch sets for FormData.
        ...(hasBody && form === undefined ? { 'content-type': 'application/json' } : {}),
        ...authorizationHeader(options.token),
      },
      ...(hasBody
        ? { body: form === undefined ? JSON.stringify(values.body) : formOf(form, values.body) }
        : {}),
      ...(init?.signal ? { signal: init.signal } : {}),
    });
    if (!response.ok) throw new PlatformApiError(response.status, await problemOf(response));
    const text = await response.text();
    return text === '' ? undefined : JSON.parse(text);
  };
  const client: Record<string, Record<string, unknown>> = {};
  for (const id of Object.keys(restRoutes) as OperationId[]) {
    const [area, verb] = id.split('.') as [string, string];
    client[area] ??= {};
    client[area][verb] = (input?: unknown, init?: RequestOptions) => call(id, input, init);
  }
  return client as RestClient;
};
