import {
  type ConnectorMethod,
  type ConnectorSandbox,
  type FetchRecord,
  type InvocationResult,
  loadConnector,
} from '@platform/runtime';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CallFailure } from './failure.ts';
import { proxyFetch } from './proxy-fetch.ts';

/** One call of the connector as the panels make it; a failure rejects with a `CallFailure`. */
export type Call = (method: ConnectorMethod, args: unknown[]) => Promise<InvocationResult>;

export type Source = { script: string; options: Record<string, unknown>; version: string };

/** One call as the panel lists it: the method, how it ended, the fetches made inside it and what it said. */
export type CallRecord = {
  id: number;
  method: ConnectorMethod;
  ms: number;
  error?: string;
  fetches: FetchRecord[];
  /** The connector's `runtime.logError` messages during the call. */
  logs: string[];
};

/**
 * The connector in this browser: one sandbox of the platform runtime per source version, calls one at a time, and
 * the log of calls with their fetches (newest first). Disposed when the panel closes.
 */
export const useSandbox = (environment: string, connectorId: string, source: Source | undefined) => {
  const sandbox = useRef<Promise<ConnectorSandbox> | undefined>(undefined);
  const fetches = useRef<FetchRecord[]>([]);
  const logs = useRef<string[]>([]);
  const [calls, setCalls] = useState<CallRecord[]>([]);

  useEffect(() => {
    if (!source) return;
    const loading = loadConnector({
      script: source.script,
      options: source.options,
      platform: 'web',
      fetch: proxyFetch(environment, connectorId),
      onFetch: (record) => fetches.current.push(record),
      onLogError: (message) => logs.current.push(message),
    });
    sandbox.current = loading;
    loading.catch(() => undefined);
    return () => {
      sandbox.current = undefined;
      void loading.then((s) => s.dispose()).catch(() => undefined);
    };
  }, [environment, connectorId, source]);

  // Calls run one after another (the sandbox does too), so each call's fetches are its own.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const counter = useRef(0);
  const call: Call = useCallback((method, args) => {
    const run = async () => {
      const started = performance.now();
      fetches.current = [];
      logs.current = [];
      const record = (error?: string) => {
        const entry: CallRecord = {
          id: ++counter.current,
          method,
          ms: Math.round(performance.now() - started),
          fetches: fetches.current,
          logs: logs.current,
        };
        if (error !== undefined) entry.error = error;
        setCalls((all) => [entry, ...all].slice(0, 50));
      };
      try {
        if (!sandbox.current) throw new Error('the connector is still loading');
        const result = await (await sandbox.current).call(method, args);
        record();
        return result;
      } catch (error) {
        record(messageOf(error));
        throw new CallFailure(error, fetches.current);
      }
    };
    const next = queue.current.then(run, run);
    queue.current = next.catch(() => undefined);
    return next;
  }, []);

  return { call, calls };
};

/** A runtime error as one line: its stable code, then the message. */
export const messageOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
};
