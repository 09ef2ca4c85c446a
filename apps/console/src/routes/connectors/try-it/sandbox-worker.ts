/// <reference lib="webworker" />
/**
 * Try it's connector sandbox, in a worker of its own: a connector that loops until its time limit keeps this thread
 * busy, never the page's (the panel stays usable, and closing it ends the worker at once).
 */
import { type ConnectorSandbox, loadConnector, toSandboxFailure } from '@platform/runtime';
import { proxyFetch } from './proxy-fetch.ts';
import type { FromSandbox, ToSandbox } from './sandbox-protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

let sandbox: Promise<ConnectorSandbox> | undefined;
let token: string | undefined;
/** The call running now: the fetches and log lines of the sandbox belong to it (calls run one at a time). */
let current = 0;

const say = (message: FromSandbox) => self.postMessage(message);

self.onmessage = async ({ data }: MessageEvent<ToSandbox>) => {
  if (data.type === 'load') {
    sandbox = loadConnector({
      script: data.source.script,
      options: data.source.options,
      platform: 'web',
      fetch: proxyFetch(data.environment, data.connectorId, () => token),
      onFetch: (record) => say({ type: 'fetch', id: current, record }),
      onLogError: (message) => say({ type: 'log', id: current, message }),
    });
    sandbox.catch(() => undefined);
    return;
  }
  current = data.id;
  token = data.token;
  try {
    if (!sandbox) throw new Error('the connector is not loaded');
    const result = await (await sandbox).call(data.method, data.args);
    // Copied, not transferred: the bytes may be a body the session keeps, which a later download answers again.
    say({ type: 'done', id: data.id, result });
  } catch (error) {
    say({ type: 'failed', id: data.id, failure: toSandboxFailure(error) });
  }
};
