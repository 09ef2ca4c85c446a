/**
 * The local commands' fetch (connector-cli test, demo, debug, stress) treats the proxy's own headers as the
 * platform's proxy does, so a connector meets the same request locally as on the platform.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { relayFetch } from '../src/local/relay-fetch.ts';

test('X-GraFx-Proxy-User-Agent becomes the User-Agent, and no x-grafx-* header reaches the target', async () => {
  const received: IncomingHttpHeaders[] = [];
  const target = createServer((req, res) => {
    received.push(req.headers);
    res.end('{}');
  }).listen(0, '127.0.0.1');
  await once(target, 'listening');
  try {
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/x`;
    const response = await relayFetch(
      {
        url,
        method: 'GET',
        headers: {
          'User-Agent': 'connector',
          'X-GraFx-Proxy-User-Agent': 'my-agent/1.0',
          'X-GraFx-Proxy-Exclude-Headers': 'Authorization',
          'x-custom': 'kept',
        },
        body: undefined,
        maxResponseBytes: 1024,
      },
      AbortSignal.timeout(5000),
    );
    expect(response.status).toBe(200);
    expect(received[0]?.['user-agent']).toBe('my-agent/1.0');
    expect(received[0]?.['x-custom']).toBe('kept');
    expect(Object.keys(received[0] ?? {}).filter((name) => name.startsWith('x-grafx-'))).toEqual([]);
  } finally {
    target.close();
  }
});
