import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayFromEpoch, epochDay, monthEnd, monthStart } from './dates.ts';
import { planRangeSum, splitWholeMonths } from './whole-months.ts';

/** Every day a split covers, from its whole months and its edge days. */
const coveredDays = (split: ReturnType<typeof splitWholeMonths>): string[] => {
  const days: string[] = [];
  for (const range of split.days) {
    for (let day = range.startDay; day <= range.endDay; day = addDays(day, 1)) days.push(day);
  }
  if (split.months) {
    for (let day = split.months.first; day <= monthEnd(split.months.last); day = addDays(day, 1))
      days.push(day);
  }
  return days.sort();
};

describe('splitWholeMonths', () => {
  it('keeps partial edge months as days and whole months as months', () => {
    expect(splitWholeMonths({ startDay: '2025-01-15', endDay: '2025-04-10' })).toEqual({
      months: { first: '2025-02-01', last: '2025-03-01' },
      days: [
        { startDay: '2025-01-15', endDay: '2025-01-31' },
        { startDay: '2025-04-01', endDay: '2025-04-10' },
      ],
    });
    expect(splitWholeMonths({ startDay: '2024-02-01', endDay: '2024-02-29' })).toEqual({
      months: { first: '2024-02-01', last: '2024-02-01' },
      days: [],
    });
    expect(splitWholeMonths({ startDay: '2025-01-02', endDay: '2025-02-27' })).toEqual({
      months: undefined,
      days: [{ startDay: '2025-01-02', endDay: '2025-02-27' }],
    });
  });

  it('splits and plans ranges in the last months of year 9999, which have no next month to step to', () => {
    expect(monthEnd('9999-12-05')).toBe('9999-12-31');
    expect(splitWholeMonths({ startDay: '9999-11-15', endDay: '9999-12-31' })).toEqual({
      months: { first: '9999-12-01', last: '9999-12-01' },
      days: [{ startDay: '9999-11-15', endDay: '9999-11-30' }],
    });
    expect(splitWholeMonths({ startDay: '9999-12-02', endDay: '9999-12-30' })).toEqual({
      months: undefined,
      days: [{ startDay: '9999-12-02', endDay: '9999-12-30' }],
    });
    expect(planRangeSum({ startDay: '9999-11-15', endDay: '9999-12-30' })).toEqual({
      months: [
        { first: '9999-11-01', last: '9999-11-01' },
        { first: '9999-12-01', last: '9999-12-01' },
      ],
      days: [],
      minus: [
        { startDay: '9999-11-01', endDay: '9999-11-14' },
        { startDay: '9999-12-31', endDay: '9999-12-31' },
      ],
    });
  });

  it('covers every day of any range exactly once, with months that are whole and inside it', () => {
    const day = fc.integer({ min: epochDay('1999-11-01'), max: epochDay('2031-03-31') }).map(dayFromEpoch);
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 800 }), (startDay, length) => {
        const endDay = addDays(startDay, length);
        const split = splitWholeMonths({ startDay, endDay });
        const expected: string[] = [];
        for (let d = startDay; d <= endDay; d = addDays(d, 1)) expected.push(d);
        expect(coveredDays(split)).toEqual(expected);
        if (split.months) {
          expect(split.months.first).toBe(monthStart(split.months.first));
          expect(split.months.first >= startDay && monthEnd(split.months.last) <= endDay).toBe(true);
          // Beside whole months, the edges are within one partial month each.
          for (const range of split.days) expect(monthStart(range.startDay)).toBe(monthStart(range.endDay));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('plans sums whose days, counted with their signs, are exactly the range', () => {
    const day = fc.integer({ min: epochDay('1999-11-01'), max: epochDay('2031-03-31') }).map(dayFromEpoch);
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 800 }), (startDay, length) => {
        const endDay = addDays(startDay, length);
        const plan = planRangeSum({ startDay, endDay });
        const weight = new Map<string, number>();
        const add = (from: string, to: string, sign: number) => {
          for (let d = from; d <= to; d = addDays(d, 1)) weight.set(d, (weight.get(d) ?? 0) + sign);
        };
        for (const m of plan.months) add(m.first, monthEnd(m.last), 1);
        for (const r of plan.days) add(r.startDay, r.endDay, 1);
        for (const r of plan.minus) add(r.startDay, r.endDay, -1);
        const counted = [...weight].filter(([, w]) => w !== 0);
        expect(counted.every(([, w]) => w === 1)).toBe(true);
        expect(counted.map(([d]) => d).sort()).toEqual(coveredDays(splitWholeMonths({ startDay, endDay })));
      }),
      { numRuns: 300 },
    );
    // A trailing window ending mid-month reads the rest of the month, not the days so far.
    expect(planRangeSum({ startDay: '2026-10-24', endDay: '2026-11-22' })).toEqual({
      months: [{ first: '2026-11-01', last: '2026-11-01' }],
      days: [{ startDay: '2026-10-24', endDay: '2026-10-31' }],
      minus: [{ startDay: '2026-11-23', endDay: '2026-11-30' }],
    });
  });
});
