import { describe, expect, it } from 'vitest';
import { traceIdOf } from './trace.ts';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('traceIdOf (W3C Trace Context)', () => {
  it('continues a version 00 header of exactly 55 characters, and a later version by its first 55', () => {
    expect(traceIdOf(`00-${traceId}-00f067aa0ba902b7-01`)).toBe(traceId);
    expect(traceIdOf(` 00-${traceId}-00f067aa0ba902b7-01 `)).toBe(traceId);
    expect(traceIdOf(`01-${traceId}-00f067aa0ba902b7-01`)).toBe(traceId);
    expect(traceIdOf(`01-${traceId}-00f067aa0ba902b7-01-later-fields`)).toBe(traceId);
  });

  it('starts a new trace for an invalid header', () => {
    for (const invalid of [
      undefined,
      '',
      '00-zzzz-00f067aa0ba902b7-01',
      `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`,
      `ff-${traceId}-00f067aa0ba902b7-01`,
      `00-${traceId}-00f067aa0ba902b7-01-more`,
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `01-${traceId}-00f067aa0ba902b7-01x`,
    ]) {
      const fresh = traceIdOf(invalid);
      expect(fresh, String(invalid)).not.toBe(traceId);
      expect(fresh).toMatch(/^[0-9a-f]{32}$/);
    }
  });
});
