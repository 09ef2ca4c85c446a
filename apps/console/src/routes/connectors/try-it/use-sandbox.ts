import {
  type ConnectorMethod,
  type FetchRecord,
  fromSandboxFailure,
  type InvocationResult,
} from '@platform/runtime';
import { useCallback, useEffect, useRef, useState } from 'react';
import { currentToken } from '../../../auth/use-session.ts';
import { CallFailure } from './failure.ts';
import type { FromSandbox, Source, ToSandbox } from './sandbox-protocol.ts';

export type { Source } from './sandbox-protocol.ts';

/** One call of the connector as the panels make it; a failure rejects with a `CallFailure`. */
export type Call = (method: ConnectorMethod, args: unknown[]) => Promise<InvocationResult>;

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

type Pending = {
  resolve: (result: InvocationResult) => void;
  reject: (error: unknown) => void;
  fetches: FetchRecord[];
  logs: string[];
};

/**
 * The connector in this browser: one sandbox of the platform runtime per source version, in a worker of its own
 * (sandbox-worker.ts), so a connector that loops never freezes the page; calls one at a time, and the log of calls
 * with their fetches (newest first). The worker ends when the panel closes, a call still running with it.
 */
export const useSandbox = (environment: string, connectorId: string, source: Source | undefined) => {
  const worker = useRef<Worker | undefined>(undefined);
  const pending = useRef(new Map<number, Pending>());
  const [calls, setCalls] = useState<CallRecord[]>([]);

  useEffect(() => {
    if (!source) return;
    const started = new Worker(new URL('./sandbox-worker.ts', import.meta.url), { type: 'module' });
    const waiting = pending.current;
    started.onmessage = ({ data }: MessageEvent<FromSandbox>) => {
      const call = waiting.get(data.id);
      if (!call) return;
      if (data.type === 'fetch') call.fetches.push(data.record);
      else if (data.type === 'log') call.logs.push(data.message);
      else {
        waiting.delete(data.id);
        if (data.type === 'done') call.resolve(data.result);
        else call.reject(fromSandboxFailure(data.failure));
      }
    };
    // The worker itself failed (its script could not load): every call waiting on it fails with that.
    started.onerror = (event) => {
      event.preventDefault();
      for (const call of waiting.values()) call.reject(new Error(`the sandbox stopped: ${event.message}`));
      waiting.clear();
    };
    started.postMessage({ type: 'load', source, environment, connectorId } satisfies ToSandbox);
    worker.current = started;
    return () => {
      worker.current = undefined;
      started.terminate();
      for (const call of waiting.values()) call.reject(new Error('the panel was closed'));
      waiting.clear();
    };
  }, [environment, connectorId, source]);

  // Calls run one after another (the sandbox does too), so each call's fetches are its own.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const counter = useRef(0);
  const call: Call = useCallback((method, args) => {
    const run = async () => {
      const started = performance.now();
      const id = ++counter.current;
      const entry: Pending = { resolve: () => undefined, reject: () => undefined, fetches: [], logs: [] };
      const record = (error?: string) => {
        const listed: CallRecord = {
          id,
          method,
          ms: Math.round(performance.now() - started),
          fetches: entry.fetches,
          logs: entry.logs,
        };
        if (error !== undefined) listed.error = error;
        setCalls((all) => [listed, ...all].slice(0, 50));
      };
      try {
        const running = worker.current;
        if (!running) throw new Error('the connector is still loading');
        const result = await new Promise<InvocationResult>((resolve, reject) => {
          entry.resolve = resolve;
          entry.reject = reject;
          pending.current.set(id, entry);
          running.postMessage({ type: 'call', id, method, args, token: currentToken() } satisfies ToSandbox);
        });
        record();
        return result;
      } catch (error) {
        record(messageOf(error));
        throw new CallFailure(error, entry.fetches);
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
