import { randomBytes } from 'node:crypto';
import type { AuditEntry, AuditPage } from '@platform/core';
import type { TestPlatform } from '../support/platform.ts';

export const READ_WRITE = ['platform:read', 'platform:write'];
export const OPERATOR_ROLES = [...READ_WRITE, 'platform:admin'];
export const envPath = (environment: string) => `/grafx/api/v1/environment/${environment}`;

export type Reply<T = unknown> = { status: number; body: T; text: string; traceId: string };

/** A new W3C trace id and the `traceparent` that carries it. */
export const newTrace = () => {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
};

/**
 * A caller of the started platform: each request carries a new `traceparent` (the reply names its trace id) and,
 * from behind the trusted load balancer, the client address in `X-Forwarded-For`. Every answer's text is kept so
 * a test can search them all for secrets.
 */
export const caller = (tp: () => TestPlatform, clientAddress: string) => {
  const tokens = new Map<string, string>();
  const texts: string[] = [];
  const call = async <T = unknown>(
    method: string,
    path: string,
    options: { user: string; roles?: string[]; body?: unknown } = { user: '' },
  ): Promise<Reply<T>> => {
    const roles = options.roles ?? READ_WRITE;
    const key = `${options.user} ${roles.join(',')}`;
    let token = tokens.get(key);
    if (!token) {
      token = await tp().token(options.user, roles);
      tokens.set(key, token);
    }
    const { traceId, traceparent } = newTrace();
    const response = await tp().call(path, {
      method,
      token,
      headers: {
        traceparent,
        'x-forwarded-for': clientAddress,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    texts.push(text);
    return {
      status: response.status,
      body: (text === '' ? undefined : JSON.parse(text)) as T,
      text,
      traceId,
    };
  };
  /** Every entry `user` may read under `query`, following links.nextPage. */
  const trail = async (user: string, query = '', roles?: string[]): Promise<AuditEntry[]> => {
    const entries: AuditEntry[] = [];
    let path: string | null = `/api/v1/audit?limit=200${query ? `&${query}` : ''}`;
    while (path) {
      const page: Reply<AuditPage> = await call<AuditPage>('GET', path, {
        user,
        ...(roles ? { roles } : {}),
      });
      if (page.status !== 200) throw new Error(`GET ${path} → ${page.status}: ${page.text}`);
      entries.push(...page.body.data);
      const next: string | null = page.body.links.nextPage;
      path = next === null ? null : next.slice(new URL(next).origin.length);
    }
    return entries;
  };
  return { call, trail, texts };
};
