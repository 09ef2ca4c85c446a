import { STATUS_CODES } from 'node:http';
import { ProblemDetails } from '@platform/core';
import type { Context } from './context.ts';
import { CliError, ServerError } from './errors.ts';
import { send } from './http.ts';
import { resolveToken } from './token.ts';

const statusTitle = (status: number): string => STATUS_CODES[status] ?? 'Unknown Status';

export type ApiRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** What `--dry-run` and `--verbose` show instead of `body`: the same with secret values masked. */
  shownBody?: unknown;
};

export type ApiResult = { sent: false } | { sent: true; status: number; data: unknown };

const parseBody = (text: string, contentType: string | undefined): unknown => {
  if (text === '') return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
};

const printDryRun = (ctx: Context, request: ApiRequest, hasToken: boolean): void => {
  const authorization = hasToken ? 'Bearer ***' : '(none: run connector-cli login or pass --token)';
  const shown = request.shownBody ?? request.body;
  const headers: Record<string, string> = { Authorization: authorization };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const lines = [
    'dry run: nothing was sent',
    `${request.method} ${request.url}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  if (shown !== undefined) lines.push('', JSON.stringify(shown, null, 2));
  ctx.out.result(lines.join('\n'), {
    dryRun: true,
    request: { method: request.method, url: request.url, headers, body: shown },
  });
};

const HINTS: Record<number, string> = {
  401: 'run connector-cli login again, or pass a valid --token',
  // A token role, or a role in the environment (docs/authentication.md): the server's words name which.
  403: 'use a token with that role (connector-cli login, or --token), or ask a subscription owner for access to the environment',
  404: 'check -e and --connectorId (connector-cli list -e <environment> -b <baseUrl> shows the connectors)',
  // The platform could not load or run the script it was sent: the cause is in the connector's code.
  422: 'fix the connector so that it loads (connector-cli build and connector-cli info run it here), then publish again',
  429: 'wait a moment and run it again',
  500: 'try again in a moment; --verbose shows what the server answered',
};

const serverError = (status: number, data: unknown): ServerError => {
  const parsed = ProblemDetails.safeParse(data);
  const problem = parsed.success && typeof data === 'object' ? parsed.data : undefined;
  const detail = problem?.detail ?? `the server answered ${status} ${statusTitle(status)}`;
  // The server's words say what is wrong; the fix for the statuses a command meets most is added to them.
  // The server has no such path at all (not a connector it cannot find): the path of -b is the likely fault.
  const noEndpoint = status === 404 && problem?.detail?.startsWith('No endpoint at ') === true;
  const hint = noEndpoint
    ? 'check the path of -b: it is where the environment API begins, such as https://<host>/grafx'
    : (HINTS[status] ?? (status >= 500 ? HINTS[500] : undefined));
  const message = hint ? `${detail.replace(/\.$/, '')}; ${hint}` : detail;
  const details = [`HTTP ${status} ${statusTitle(status)}`];
  if (problem !== undefined) details.push(JSON.stringify(problem, null, 2));
  else if (typeof data === 'string' && data !== '') details.push(data.slice(0, 2000));
  return new ServerError(status, message, problem, details);
};

/** Sends one request to the platform, or prints it under `--dry-run`. Non-2xx answers become ServerError. */
export const callApi = async (ctx: Context, request: ApiRequest): Promise<ApiResult> => {
  const token = await resolveToken(ctx.globals.token, ctx.env, { required: !ctx.globals.dryRun });
  if (token !== undefined) ctx.out.addSecret(token.token);
  if (ctx.globals.dryRun) {
    printDryRun(ctx, request, token !== undefined);
    return { sent: false };
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token.token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  ctx.out.debug(`> ${request.method} ${request.url} (token from ${token?.source ?? 'nowhere'})`);
  if (request.shownBody !== undefined || request.body !== undefined) {
    ctx.out.debug(`> ${JSON.stringify(request.shownBody ?? request.body)}`);
  }
  let response: Awaited<ReturnType<typeof send>>;
  try {
    response = await send({
      method: request.method,
      url: request.url,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
  } catch (error) {
    const origin = new URL(request.url).origin;
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(
      'NETWORK_ERROR',
      `could not reach ${origin} (${reason}); check -b and that the platform is running`,
      { cause: error },
    );
  }
  ctx.out.debug(`< HTTP ${response.status} ${statusTitle(response.status)}`);
  const contentType = response.headers['content-type'];
  const data = parseBody(response.body, typeof contentType === 'string' ? contentType : undefined);
  if (response.status < 200 || response.status >= 300) throw serverError(response.status, data);
  return { sent: true, status: response.status, data };
};
