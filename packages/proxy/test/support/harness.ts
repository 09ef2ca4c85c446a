import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Database, SecretBox } from '@platform/store';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { Agent, type Dispatcher, request } from 'undici';
import { type ConnectorProxy, createProxy, type ProxyOptions } from '../../src/index.ts';
import { environmentId } from './database.ts';
import { type Listening, listen } from './servers.ts';

/** Every log line the proxy wrote, to prove no secret is ever in one. */
export const captureLog = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
};

export type Harness = Listening & {
  proxy: ConnectorProxy;
  lines: string[];
  registry: Registry;
  call(connectorId: string, options: CallOptions): Promise<CallResult>;
};

export type CallOptions = {
  url: string;
  method?: string;
  externalMethod?: string;
  usage?: 'browser' | 'server';
  headers?: Record<string, string>;
  body?: string | Buffer;
  roles?: string[];
  userId?: string;
};

export type CallResult = { status: number; headers: Dispatcher.ResponseData['headers']; text: string };

const client = new Agent({ connections: 600, keepAliveTimeout: 1_000 });

/**
 * The proxy behind a bare node:http server, standing in for apps/server: the caller's roles and user come
 * from x-grafx-test-* headers (the proxy drops every x-grafx-* header, so the target never sees them).
 */
export const startProxy = async (
  database: Database,
  secrets: SecretBox,
  options: Partial<ProxyOptions> = {},
): Promise<Harness> => {
  const { log, lines } = captureLog();
  const registry = options.metricsRegistry ?? new Registry();
  const proxy = createProxy({
    database,
    secrets,
    log,
    metricsRegistry: registry,
    allowPrivateNetworks: true,
    publicUrl: 'http://platform.test',
    fetchTimeoutMs: 2_000,
    configCacheMs: 0,
    ...options,
  });
  const listening = await listen((req, res) => {
    const connectorId = (req.url ?? '').split('/')[2] ?? '';
    const roles = String(req.headers['x-grafx-test-roles'] ?? 'platform:read').split(',');
    void proxy.handle(req, res, {
      environmentId,
      connectorId,
      caller: { userId: String(req.headers['x-grafx-test-user'] ?? 'auth0|alice'), roles: new Set(roles) },
      traceId: randomBytes(16).toString('hex'),
    });
  });
  return {
    ...listening,
    proxy,
    lines,
    registry,
    async close() {
      await listening.close();
      await proxy.close();
    },
    async call(connectorId, o) {
      const headers: Record<string, string> = {
        'x-grafx-proxy-external-url': o.url,
        authorization: 'Bearer platform-token-of-the-caller',
        ...(o.externalMethod ? { 'x-grafx-proxy-external-method': o.externalMethod } : {}),
        ...(o.usage ? { 'x-grafx-proxy-external-authentication-source': o.usage } : {}),
        ...(o.roles ? { 'x-grafx-test-roles': o.roles.join(',') } : {}),
        ...(o.userId ? { 'x-grafx-test-user': o.userId } : {}),
        ...o.headers,
      };
      const response = await request(`${listening.url}/connectors/${connectorId}/proxy`, {
        dispatcher: client,
        method: (o.method ?? 'GET') as Dispatcher.HttpMethod,
        headers,
        body: o.body,
      });
      return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
    },
  };
};
