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

  it('refuses U+0000 and lone surrogates anywhere in the file, named by their path', async () => {
    const events: unknown[] = Array.from({ length: 6_000 }, (_, i) => event(i));
    events[5_500] = { ...event(0), kind: 'P\u0000df' };
    const parsed = await parseDataFile({
      users: [{ id: 'auth0|\ud800', email: 'a@example.com', firstName: 'A', lastName: 'B' }],
      renderEvents: events,
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(Object.keys(fieldErrors(parsed.error))).toEqual(['users[0].id', 'renderEvents[5500].kind']);
  });
});
