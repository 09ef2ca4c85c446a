import { DataFile, fieldErrors } from '@platform/core';
import { describe, expect, it } from 'vitest';
import { parseDataFile } from './parse-data-file.ts';

const event = (i: number) => ({
  environmentGuid: '0e000000-0000-4000-8000-000000000001',
  kind: 'Pdf',
  at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
});

describe('parseDataFile', () => {
  it('accepts what DataFile accepts, slice by slice, with the same defaults', async () => {
    const input = { users: [], renderEvents: Array.from({ length: 12_001 }, (_, i) => event(i)) };
    const parsed = await parseDataFile(input);
    expect(parsed).toEqual(DataFile.safeParse(input));
  });

  it('names bad events by their index in the whole file, after the other keys', async () => {
    const events: unknown[] = Array.from({ length: 12_000 }, (_, i) => event(i));
    events[11_000] = { ...event(0), at: 'yesterday' };
    events[3] = { ...event(0), count: 0 };
    const parsed = await parseDataFile({ users: [{ id: '' }], renderEvents: events });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(Object.keys(fieldErrors(parsed.error))).toEqual([
      'users[0].id',
      'users[0].email',
      'renderEvents[3].count',
      'renderEvents[11000].at',
    ]);
  });
});
