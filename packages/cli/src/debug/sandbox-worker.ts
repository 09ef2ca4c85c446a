/// <reference lib="webworker" />
/**
 * The debug page's connector sandbox, in a worker of its own: a connector that loops until its time limit keeps
 * this thread busy, not the page's, and the page's Stop ends the worker with the call.
 */
import { type ConnectorSandbox, loadConnector, toSandboxFailure } from '@platform/runtime';
import { pageRelay } from './page-relay.ts';
import type { FromSandbox, ToSandbox } from './sandbox-messages.ts';

declare const self: DedicatedWorkerGlobalScope;

let sandbox: Promise<ConnectorSandbox> | undefined;
/** The call running now: the sandbox's fetches and log lines are its own (the page runs one call at a time). */
let current = 0;

const say = (message: FromSandbox) => self.postMessage(message);

self.onmessage = async ({ data }: MessageEvent<ToSandbox>) => {
  if (data.type === 'load') {
    sandbox = loadConnector({
      script: data.script,
      options: data.options,
      platform: 'web',
      fetch: pageRelay,
      onFetch: (record) => say({ type: 'fetch', id: current, record }),
      onLogError: (message) => say({ type: 'log', id: current, message }),
    });
    sandbox.catch(() => undefined);
    return;
  }
  current = data.id;
  try {
    if (!sandbox) throw new Error('the connector is not loaded');
    // Copied to the page, not transferred: the bytes may be a body the sandbox keeps for a later download.
    say({ type: 'done', id: data.id, result: await (await sandbox).call(data.method, data.args) });
  } catch (error) {
    say({ type: 'failed', id: data.id, failure: toSandboxFailure(error) });
  }
};
