import { addDays, addMonths, type DayRange, monthEnd, monthStart } from './dates.ts';

/**
 * A day range cut where a monthly roll-up can answer: `months` are the whole calendar months inside the range
 * (first days of the first and last of them, inclusive), `days` the partial months at its edges. Renders outside
 * the range must not be counted, not even in the first or last month (CONTRACT.md §5), so the edges are read day
 * by day. Together they cover the range exactly once.
 */
export type WholeMonthSplit = {
  readonly months: { readonly first: string; readonly last: string } | undefined;
  readonly days: readonly DayRange[];
};

export const splitWholeMonths = (range: DayRange): WholeMonthSplit => {
  const { startDay, endDay } = range;
  const first = startDay === monthStart(startDay) ? startDay : addMonths(startDay, 1);
  const last = endDay === monthEnd(endDay) ? monthStart(endDay) : addMonths(endDay, -1);
  if (first > last) return { months: undefined, days: [range] };
  const days: DayRange[] = [];
  if (startDay < first) days.push({ startDay, endDay: addDays(first, -1) });
  const afterLast = addMonths(last, 1);
  if (afterLast <= endDay) days.push({ startDay: afterLast, endDay });
  return { months: { first, last }, days };
};
