import { UpstreamError } from '@platform/core';
import type { CustomFetch } from 'openid-client';
import { type Agent, request } from 'undici';
import { type AddressGuard, assertLiteralAddressAllowed } from '../net/address-guard.ts';
import { findBlockedAddressError } from '../net/blocked-address-error.ts';
import { tokenTimeoutError } from './token-backoff.ts';

/** A token response larger than this is not a token response. */
const maxTokenResponseBytes = 256 * 1024;

export type TokenFetchOptions = {
  agent: Agent;
  guard: AddressGuard;
  timeoutMs: number;
  /** `applicationJson`: send the form parameters as a JSON object instead (docs/connector-auth.md). */
  jsonBody: boolean;
};

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * openid-client's `customFetch`: every token request goes through undici with the address guard and the
 * timeout, optionally with a JSON body. Failures become ServiceErrors naming the cause (never a parameter
 * value), which the grant runner finds again under openid-client's wrapping.
 */
export const createTokenFetch =
  ({ agent, guard, timeoutMs, jsonBody }: TokenFetchOptions): CustomFetch =>
  async (url, options) => {
    const target = new URL(url);
    assertLiteralAddressAllowed(target, guard, 'token endpoint');
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.body instanceof URLSearchParams) {
      if (jsonBody) {
        body = JSON.stringify(Object.fromEntries(options.body));
        for (const name of Object.keys(headers))
          if (name.toLowerCase() === 'content-type') delete headers[name];
        headers['content-type'] = 'application/json';
      } else body = options.body.toString();
    } else if (typeof options.body === 'string') body = options.body;
    else if (options.body !== undefined && options.body !== null) {
      throw new UpstreamError('unsupported token request body');
    }
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(target, {
        dispatcher: agent,
        method: options.method as 'POST',
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: options.signal,
      });
    } catch (error) {
      const blocked = findBlockedAddressError(error);
      if (blocked) throw blocked;
      const code = (error as { code?: string }).code ?? '';
      if (timeoutCodes.has(code) || (error as Error).name === 'TimeoutError') {
        throw tokenTimeoutError(target.host, timeoutMs);
      }
      throw new UpstreamError(
        `The token endpoint ${target.host} could not be reached (${code || 'network error'}).`,
      );
    }
    let text: string;
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxTokenResponseBytes) {
          response.body.destroy();
          throw new UpstreamError(`The token endpoint ${target.host} sent an oversized response.`);
        }
        chunks.push(chunk as Buffer);
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw new UpstreamError(
        `The token endpoint ${target.host} did not send a complete response in time.`,
        'UPSTREAM_TIMEOUT',
      );
    }
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
    }
    text = withoutIdToken(text);
    return new Response(response.statusCode === 204 || response.statusCode === 304 ? null : text, {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };

/**
 * Only the access token is used. An `id_token` would make openid-client check it against an issuer the
 * data file does not carry, so it is removed before the response is processed.
 */
const withoutIdToken = (text: string): string => {
  if (!text.includes('id_token')) return text;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return text;
    const { id_token: _dropped, ...rest } = parsed as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return text;
  }
};
