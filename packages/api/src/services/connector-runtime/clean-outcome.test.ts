import { describe, expect, it } from 'vitest';
import { cleanOutcome, LOG_MESSAGES_MAX } from './clean-outcome.ts';
import type { InvocationOutcome } from './port.ts';

const SECRET = 'held-secret-4f1e9a';
const secrets = async () => [SECRET];

const outcome = (fields: Partial<InvocationOutcome>): InvocationOutcome => ({
  result: undefined,
  error: undefined,
  fetches: [],
  durationMs: 1,
  ...fields,
});

describe('cleanOutcome', () => {
  it('redacts and bounds logError messages, at most LOG_MESSAGES_MAX of them', async () => {
    const logs = Array.from({ length: 30 }, (_, i) => `${i}: token ${SECRET} ${'x'.repeat(5000)}`);
    const clean = await cleanOutcome(outcome({ logs }), secrets);
    expect(clean.logs).toHaveLength(LOG_MESSAGES_MAX);
    for (const message of clean.logs ?? []) {
      expect(message).not.toContain(SECRET);
      expect(message).toContain('***');
      expect(new TextEncoder().encode(message).byteLength).toBeLessThanOrEqual(1024);
    }
  });

  it('asks for no secrets when nothing the connector said is there', async () => {
    let asked = false;
    const quiet = outcome({ result: { kind: 'json', value: 1 } });
    expect(
      await cleanOutcome(quiet, async () => {
        asked = true;
        return [];
      }),
    ).toBe(quiet);
    expect(asked).toBe(false);
  });
});

describe('cleanOutcome without the list of secrets', () => {
  it('withholds every text rather than showing it unredacted', async () => {
    const clean = await cleanOutcome(
      outcome({
        error: { code: 'CONNECTOR_HTTP_ERROR', message: `echo ${SECRET}`, connectorStatus: 500 },
        logs: [`log ${SECRET}`],
      }),
      () => Promise.reject(new Error('database unavailable')),
    );
    expect(JSON.stringify(clean)).not.toContain(SECRET);
    expect(clean.error?.message).toContain('not shown');
  });
});
