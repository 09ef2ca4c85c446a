import { ForbiddenError, UpstreamError } from '@platform/core';
import type { RedirectMode } from '@platform/runtime';
import type { Agent, Dispatcher } from 'undici';
import { type AddressGuard, assertLiteralAddressAllowed } from '../net/address-guard.ts';
import { hostMatchesAllowedDomains, portMatchesAllowedDomains, portOf } from '../net/allowed-domains.ts';
import { findBlockedAddressError } from '../net/blocked-address-error.ts';
import type { OutgoingHeaders } from './header-filter.ts';
import type { RequestBody } from './request-body.ts';
import { EXCHANGE_TIME_LIMIT, UpstreamExchange } from './upstream-exchange.ts';

export const maxRedirects = 5;

export type Credential = { name: string; value: string };

export type UpstreamRequest = {
  url: Readonly<URL>;
  method: string;
  headers: OutgoingHeaders;
  body: RequestBody;
  credential: Credential | undefined;
  /** The connector's shared header values (secret-like): sent, like the credential, to the original origin only. */
  sharedHeaders: Readonly<Record<string, string>>;
  allowedDomains: readonly string[];
  /**
   * Fetch's redirect mode: `follow` every hop (each checked as the first), `error` (a redirect fails the exchange) or
   * `manual` (the redirect is the answer, its Location unfollowed).
   */
  redirect: RedirectMode;
  /** Ends the exchange wherever it is: the connector call that fetched has ended (the in-process adapter). */
  signal?: AbortSignal | undefined;
  /** Told as each hop's request goes out, with whether it carries the injected credential. */
  onSent?: ((credentialSent: boolean) => void) | undefined;
};

export type UpstreamContext = {
  agent: Agent;
  guard: AddressGuard;
  timeoutMs: number;
  /** The whole exchange, redirects and body included, ends after this (PROXY_EXCHANGE_TIMEOUT_SECONDS). */
  exchangeTimeoutMs: number;
  observe(statusCode: number, seconds: number): void;
};

export const hasAny = (headers: Readonly<Record<string, string>>): boolean => {
  for (const _ in headers) return true;
  return false;
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

/** Which checks a target passed, for one allowedDomains list. */
type Verdicts = { targetAllowed: boolean; credentialsMayGo: boolean };
/** What a hop reads of its target URL (which URL's getters build again on every read), and the checks it passed. */
type UrlFacts = { origin: string; path: string; verdicts: WeakMap<readonly string[], Verdicts> };

/**
 * Kept per URL object: a target URL is parsed once per header text and shared by the requests that send it
 * (proxy-headers.ts), and an allowedDomains list is read once per version of its connector (connector-config.ts), so
 * a proxied request finds its URL's strings and its passed checks here instead of building and matching them again.
 * Only passed checks are kept: a refused target throws, and the next request is checked again. A list belongs to
 * one proxy's loader, so to one address guard: the guard need not be part of the key. Weak: a URL or a list that is
 * dropped takes its entries with it. This took 7 % off a proxied request's CPU (`bench:proxy-ab`).
 */
const knownUrls = new WeakMap<Readonly<URL>, UrlFacts>();

const factsOf = (url: Readonly<URL>): UrlFacts => {
  let facts = knownUrls.get(url);
  if (facts === undefined) {
    facts = { origin: url.origin, path: `${url.pathname}${url.search}`, verdicts: new WeakMap() };
    knownUrls.set(url, facts);
  }
  return facts;
};

const verdictsOf = (facts: UrlFacts, allowedDomains: readonly string[]): Verdicts => {
  let verdicts = facts.verdicts.get(allowedDomains);
  if (verdicts === undefined) {
    verdicts = { targetAllowed: false, credentialsMayGo: false };
    facts.verdicts.set(allowedDomains, verdicts);
  }
  return verdicts;
};

/**
 * allowedDomains, then the literal-address guard; resolved names are vetted by the agent's lookup. Once per URL object
 * and list (`knownUrls`): the exchange checks before it reads the body, and every hop checks again.
 */
export const assertTargetAllowed = (
  url: Readonly<URL>,
  allowedDomains: readonly string[],
  guard: AddressGuard,
): Verdicts => {
  const verdicts = verdictsOf(factsOf(url), allowedDomains);
  if (verdicts.targetAllowed) return verdicts;
  if (!hostMatchesAllowedDomains(url.hostname, allowedDomains)) {
    throw new ForbiddenError(`The host ${url.hostname} is not in the connector's allowedDomains.`);
  }
  assertLiteralAddressAllowed(url, guard, 'target');
  verdicts.targetAllowed = true;
  return verdicts;
};

/**
 * Credentials and shared headers travel only over https and only to a port `allowedDomains` names
 * (docs/connector-proxy.md, "Where credentials go"): a reader must not be able to send them in clear text, or to
 * another service of the same host. PROXY_ALLOW_PRIVATE_NETWORKS (tests, local development) lifts the rule, as it
 * admits http token endpoints: the services of such a set-up are reached by names of their own (`http://mock:8080`)
 * as often as by loopback addresses. Refused rather than sent without them: the caller would get a confusing answer
 * otherwise.
 */
const assertCredentialsMayGo = (url: URL, allowedDomains: readonly string[], guard: AddressGuard) => {
  // The development stand-in (docs/demo-connectors.md) is one loopback origin served over http by the platform itself.
  if (guard.allowPrivateNetworks || guard.exempts(url)) return;
  if (url.protocol !== 'https:') {
    throw new ForbiddenError(
      `The connector's credentials and shared headers are sent over https only: use https://${url.host} instead of http://.`,
    );
  }
  if (!portMatchesAllowedDomains(url, allowedDomains)) {
    throw new ForbiddenError(
      `The connector's credentials and shared headers go only to the ports allowedDomains names: port ${portOf(url)} of ${url.hostname} is not one (an entry without :port names 443 only).`,
    );
  }
};

/**
 * Whether the connector's credentials and shared headers may go to `url` (assertCredentialsMayGo), kept like the
 * target's checks. The exchange asks before it fetches a token, so a target refused anyway is refused without one.
 */
export const assertCredentialsAllowed = (
  url: Readonly<URL>,
  allowedDomains: readonly string[],
  guard: AddressGuard,
  verdicts: Verdicts = verdictsOf(factsOf(url), allowedDomains),
): void => {
  if (verdicts.credentialsMayGo) return;
  assertCredentialsMayGo(url, allowedDomains, guard);
  verdicts.credentialsMayGo = true;
};

const toUpstreamError = (error: unknown, url: URL, ctx: UpstreamContext): Error => {
  const { timeoutMs } = ctx;
  const blocked = findBlockedAddressError(error);
  if (blocked) return blocked;
  const code = (error as { code?: string }).code ?? '';
  if (code === EXCHANGE_TIME_LIMIT) {
    return new UpstreamError(
      `The exchange with the target ${url.host} took longer than ${ctx.exchangeTimeoutMs} ms.`,
      'UPSTREAM_TIMEOUT',
    );
  }
  if (timeoutCodes.has(code)) {
    return new UpstreamError(
      `The target ${url.host} did not answer within ${timeoutMs} ms.`,
      'UPSTREAM_TIMEOUT',
    );
  }
  const unreadable = unreadableAnswer(error);
  if (unreadable)
    return new UpstreamError(`The target ${url.host} sent an answer the proxy cannot read: ${unreadable}.`);
  return new UpstreamError(`The target ${url.host} could not be reached (${code || 'network error'}).`);
};

/**
 * What was wrong with a target's answer that is not HTTP the proxy can read, in words a connector developer can act
 * on; undefined for a failure to reach it. undici's parser names the fault itself (`Invalid header value char`); a 101
 * the proxy never asked for fails one of undici's assertions, whose own text says nothing.
 */
const unreadableAnswer = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'HTTPParserError') return error.message;
  if ((error as { code?: string }).code === 'ERR_ASSERTION')
    return 'a switch of protocols (101) it did not ask for, or another answer HTTP/1.1 does not allow';
  return undefined;
};

/**
 * Sends the request and follows redirects itself (at most 5), re-checking every hop against allowedDomains
 * and the address guard. The injected credential and the shared headers only go to the original origin: a redirect
 * elsewhere gets the request without them, as browsers do with Authorization.
 */
export const sendUpstream = async (req: UpstreamRequest, ctx: UpstreamContext): Promise<UpstreamExchange> => {
  let { url, method, body } = req;
  let headers = req.headers;
  const origin = factsOf(url).origin;
  const deadline = performance.now() + ctx.exchangeTimeoutMs;
  for (let hop = 0; ; hop++) {
    const facts = factsOf(url);
    const verdicts = assertTargetAllowed(url, req.allowedDomains, ctx.guard);
    const sameOrigin = facts.origin === origin;
    const credentialSent = req.credential !== undefined && sameOrigin;
    if (sameOrigin && (credentialSent || hasAny(req.sharedHeaders))) {
      assertCredentialsAllowed(url, req.allowedDomains, ctx.guard, verdicts);
    }
    const hopHeaders: OutgoingHeaders = { ...headers };
    // Shared headers are the connector owner's: they win over what the script sent.
    if (sameOrigin)
      for (const name in req.sharedHeaders) hopHeaders[name.toLowerCase()] = req.sharedHeaders[name]!;
    if (credentialSent && req.credential)
      hopHeaders[req.credential.name.toLowerCase()] = req.credential.value;
    if (body.kind === 'stream' && body.length !== undefined)
      hopHeaders['content-length'] = String(body.length);
    if (req.signal?.aborted)
      throw new UpstreamError(`The request to ${url.host} was aborted: its call ended.`);
    const started = performance.now();
    const response = new UpstreamExchange(credentialSent, url, hop > 0);
    // Whole milliseconds: Node keeps one list of timers per duration, and a first hop's is then the same for every
    // exchange (a fraction of a millisecond off made a list, and its place in the queue of lists, per request).
    response.limit(Math.max(0, Math.ceil(deadline - started)));
    ctx.agent.dispatch(
      {
        origin: facts.origin,
        path: facts.path,
        method: method as Dispatcher.HttpMethod,
        headers: hopHeaders,
        body: body.kind === 'none' ? undefined : body.kind === 'buffered' ? body.data : body.stream,
        headersTimeout: ctx.timeoutMs,
        bodyTimeout: ctx.timeoutMs,
      },
      response,
    );
    req.onSent?.(credentialSent);
    // Before the response head the exchange is its own to end; after it, reading the body (`collect`) is.
    const abort = () => response.abort(new Error('aborted: the call ended'));
    req.signal?.addEventListener('abort', abort, { once: true });
    try {
      await response.started;
    } catch (error) {
      throw toUpstreamError(error, url, ctx);
    } finally {
      req.signal?.removeEventListener('abort', abort);
    }
    // Observed as the target answered (a status above 599 counts in the class `other`), whatever the caller gets.
    ctx.observe(response.statusCode, (performance.now() - started) / 1000);
    if (response.statusCode > 599) {
      // Not an HTTP status (RFC 9110 §15): a caller, or a browser behind it, cannot know what it means.
      response.discard();
      throw new UpstreamError(
        `The target ${url.host} answered with status ${response.statusCode}, which is not an HTTP status (100–599).`,
      );
    }

    const location = response.headers.location;
    const target = typeof location === 'string' ? location : undefined;
    if (!redirectStatuses.has(response.statusCode) || target === undefined) return response;
    if (req.redirect === 'manual') return response;
    if (req.redirect === 'error') {
      response.discard();
      throw new UpstreamError(
        `The target ${url.host} answered with a redirect (${response.statusCode}), and the fetch's redirect mode is 'error'.`,
      );
    }
    const keepsMethod = response.statusCode === 307 || response.statusCode === 308;
    // A streamed body is gone: a redirect that must send it again is handed back to the caller instead.
    if (keepsMethod && body.kind === 'stream') return response;
    if (hop >= maxRedirects) {
      response.discard();
      throw new UpstreamError(`The target ${url.host} redirected more than ${maxRedirects} times.`);
    }
    let next: URL;
    try {
      next = new URL(target, url);
    } catch {
      return response;
    }
    response.discard();
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new ForbiddenError(
        `The target redirected to a ${next.protocol} URL, which the proxy does not follow.`,
      );
    }
    next.hash = '';
    // Fetch semantics: 303 (and 301/302 after POST) continue as GET without the body.
    const toGet = response.statusCode === 303 ? method !== 'HEAD' : !keepsMethod && method === 'POST';
    if (toGet) {
      method = 'GET';
      body = { kind: 'none' };
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !name.startsWith('content-')),
      ) as OutgoingHeaders;
    }
    url = next;
  }
};
