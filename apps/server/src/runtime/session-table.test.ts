import { describe, expect, it } from 'vitest';
import { SessionTable } from './session-table.ts';

describe('the session table of the runtime', () => {
  it('keeps a session on its worker, ends the least recently used idle one beyond the bound', () => {
    const table = new SessionTable<string>({ maxSessions: 2, idleMs: 1_000 });
    const a = table.open('a', () => 'w1', 0).entry;
    table.open('b', () => 'w2', 1);
    expect(table.open('a', () => 'w9', 2).entry).toBe(a);
    table.begin(a, 3);
    table.end(a, 4);
    const opened = table.open('c', () => 'w1', 5);
    expect(opened.ended.map((entry) => entry.key)).toEqual(['b']);
    expect(table.size).toBe(2);
  });

  it('never ends a session with calls running, and ends idle ones after the idle time', () => {
    const table = new SessionTable<string>({ maxSessions: 1, idleMs: 1_000 });
    const a = table.open('a', () => 'w1', 0).entry;
    table.begin(a, 0);
    expect(table.open('b', () => 'w1', 1).ended).toEqual([]);
    expect(table.size).toBe(2);
    expect(table.expire(5_000).map((entry) => entry.key)).toEqual(['b']);
    table.end(a, 5_000);
    expect(table.expire(5_500)).toEqual([]);
    expect(table.expire(6_001).map((entry) => entry.key)).toEqual(['a']);
  });
});
