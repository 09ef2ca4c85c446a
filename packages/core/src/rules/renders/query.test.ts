import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors.ts';
import { parseRenderQuery } from './query.ts';

const now = new Date('2026-03-15T23:59:59Z');
const env = { allowTop: false };
const sub = { allowTop: true };

const errorsOf = (raw: Record<string, unknown>, options = sub): Record<string, string[]> => {
  try {
    parseRenderQuery(raw, now, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors ?? {};
  }
  throw new Error('expected a ValidationError');
};

describe('parseRenderQuery defaults', () => {
  it('year: 12 month groups ending with the current month', () => {
    const query = parseRenderQuery({ groupBy: 'year' }, now, env);
    expect(query.groups).toHaveLength(12);
    expect(query.groups[0]).toBe('2025-04-01');
    expect(query.groups[11]).toBe('2026-03-01');
    expect(query.startDay).toBe('2025-04-01');
    expect(query.endDay).toBe('2026-03-31');
    expect(query.top).toBeUndefined();
  });

  it('month: 30 day groups ending today (UTC)', () => {
    const query = parseRenderQuery({ groupBy: 'month' }, now, env);
    expect(query.groups).toHaveLength(30);
    expect(query.groups[0]).toBe('2026-02-14');
    expect(query.groups[29]).toBe('2026-03-15');
    expect(query).toMatchObject({ startDay: '2026-02-14', endDay: '2026-03-15' });
  });

  it('uses UTC, not the local day', () => {
    const query = parseRenderQuery({ groupBy: 'month' }, new Date('2026-01-01T00:30:00+02:00'), env);
    expect(query.endDay).toBe('2025-12-31');
  });

  it('year default crosses the year boundary', () => {
    const query = parseRenderQuery({ groupBy: 'year' }, new Date('2026-01-05T00:00:00Z'), env);
    expect(query.groups[0]).toBe('2025-02-01');
    expect(query.groups.at(-1)).toBe('2026-01-01');
  });
});

describe('parseRenderQuery custom ranges', () => {
  it('year: month groups of an inclusive range that counts only the given days', () => {
    const query = parseRenderQuery(
      { groupBy: 'year', startDate: '2025-11-20', endDate: '2026-02-03' },
      now,
      env,
    );
    expect(query.groups).toEqual(['2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01']);
    expect(query).toMatchObject({ startDay: '2025-11-20', endDay: '2026-02-03' });
  });

  it('month: day groups', () => {
    const query = parseRenderQuery(
      { groupBy: 'month', startDate: '2024-02-27', endDate: '2024-03-01' },
      now,
      env,
    );
    expect(query.groups).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
  });

  it('one day is a range', () => {
    const query = parseRenderQuery(
      { groupBy: 'month', startDate: '2026-01-01', endDate: '2026-01-01' },
      now,
      env,
    );
    expect(query.groups).toEqual(['2026-01-01']);
  });

  it('accepts exactly 120 months and 366 days', () => {
    expect(
      parseRenderQuery({ groupBy: 'year', startDate: '2016-01-31', endDate: '2025-12-01' }, now, env).groups,
    ).toHaveLength(120);
    expect(
      parseRenderQuery({ groupBy: 'month', startDate: '2024-01-01', endDate: '2024-12-31' }, now, env).groups,
    ).toHaveLength(366);
  });

  it('rejects 121 months and 367 days', () => {
    expect(errorsOf({ groupBy: 'year', startDate: '2016-01-01', endDate: '2026-01-01' })).toHaveProperty(
      'endDate',
    );
    expect(errorsOf({ groupBy: 'month', startDate: '2024-01-01', endDate: '2025-01-01' })).toHaveProperty(
      'endDate',
    );
  });

  it('rejects startDate after endDate', () => {
    expect(errorsOf({ groupBy: 'month', startDate: '2026-01-02', endDate: '2026-01-01' })).toHaveProperty(
      'startDate',
    );
  });

  it('requires each date when the other is given', () => {
    expect(errorsOf({ groupBy: 'month', startDate: '2026-01-02' })).toHaveProperty('endDate');
    expect(errorsOf({ groupBy: 'month', endDate: '2026-01-02' })).toHaveProperty('startDate');
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-1-01',
    '20260101',
    '2026-01-01T00:00:00Z',
    '',
    ' 2026-01-01',
    '0000-01-01',
  ])('rejects the date %j', (date) => {
    expect(errorsOf({ groupBy: 'month', startDate: date, endDate: '2026-01-03' })).toHaveProperty(
      'startDate',
    );
  });
});

describe('parseRenderQuery groupBy and top', () => {
  it('requires groupBy and names the allowed values', () => {
    expect(errorsOf({})).toHaveProperty('groupBy');
    for (const value of ['Year', 'MONTH', 'day', '']) {
      const errors = errorsOf({ groupBy: value });
      expect(errors.groupBy?.join(' ')).toMatch(/year or month/);
    }
  });

  it('detail names the problem', () => {
    expect(() => parseRenderQuery({ groupBy: 'week' }, now, env)).toThrow(/year or month/);
  });

  it('top: integer of at least 1', () => {
    expect(parseRenderQuery({ groupBy: 'year', top: '3' }, now, sub).top).toBe(3);
    expect(parseRenderQuery({ groupBy: 'year', top: 2 }, now, sub).top).toBe(2);
    for (const top of ['0', '-1', '1.5', 'abc', '', '99999999999', 0, 1.5]) {
      expect(errorsOf({ groupBy: 'year', top })).toHaveProperty('top');
    }
  });

  it('ignores top where it is not allowed', () => {
    expect(parseRenderQuery({ groupBy: 'year', top: 'x' }, now, env).top).toBeUndefined();
  });

  it('rejects repeated keys', () => {
    expect(errorsOf({ groupBy: ['year', 'year'] })).toHaveProperty('groupBy');
    expect(errorsOf({ groupBy: 'year', top: ['1', '2'] })).toHaveProperty('top');
    expect(
      errorsOf({ groupBy: 'year', startDate: ['2026-01-01', '2026-01-02'], endDate: '2026-02-01' }),
    ).toHaveProperty('startDate');
  });

  it('reports every bad parameter at once', () => {
    const errors = errorsOf({ groupBy: 'x', top: '0', startDate: 'bad' });
    expect(Object.keys(errors).sort()).toEqual(['endDate', 'groupBy', 'startDate', 'top']);
  });
});

describe('parseRenderQuery at the end of the calendar', () => {
  it('groups the last months and days of year 9999, which have no next month to step to', () => {
    const year = parseRenderQuery(
      { groupBy: 'year', startDate: '9999-11-15', endDate: '9999-12-31' },
      now,
      env,
    );
    expect(year.groups).toEqual(['9999-11-01', '9999-12-01']);
    const month = parseRenderQuery(
      { groupBy: 'month', startDate: '9999-12-30', endDate: '9999-12-31' },
      now,
      env,
    );
    expect(month.groups).toEqual(['9999-12-30', '9999-12-31']);
  });
});
