import { addDays, type DayRange, daySpan, monthEnd, monthIndex, monthOfIndex, monthStart } from './dates.ts';

/**
 * A day range cut where a monthly roll-up can answer: `months` are the whole calendar months inside the range
 * (first days of the first and last of them, inclusive), `days` the partial months at its edges. Renders outside
 * the range must not be counted, not even in the first or last month (docs/admin-api.md), so the edges are read day
 * by day. Together they cover the range exactly once.
 */
export type WholeMonthSplit = {
  readonly months: { readonly first: string; readonly last: string } | undefined;
  readonly days: readonly DayRange[];
};

export const splitWholeMonths = (range: DayRange): WholeMonthSplit => {
  const { startDay, endDay } = range;
  // Month indexes, not day strings: the month after 9999-12 has no four-digit name.
  const firstIndex = monthIndex(startDay) + (startDay === monthStart(startDay) ? 0 : 1);
  const lastIndex = monthIndex(endDay) - (endDay === monthEnd(endDay) ? 0 : 1);
  if (firstIndex > lastIndex) return { months: undefined, days: [range] };
  const first = monthOfIndex(firstIndex);
  const last = monthOfIndex(lastIndex);
  const days: DayRange[] = [];
  if (startDay < first) days.push({ startDay, endDay: addDays(first, -1) });
  if (lastIndex < monthIndex(endDay)) days.push({ startDay: monthOfIndex(lastIndex + 1), endDay });
  return { months: { first, last }, days };
};

/**
 * How to total a range from both roll-ups reading the fewest days: whole months from the monthly roll-up, and each
 * partial month either by its days inside the range, or, when fewer days lie outside it, as the whole month minus
 * those outside days (`minus`). A trailing window ending today reads the few days left in the current month (most
 * of them still empty) instead of every day so far. Only for totals: subtracted rows carry no meaning per group.
 */
export type SumPlan = {
  readonly months: readonly { readonly first: string; readonly last: string }[];
  readonly days: readonly DayRange[];
  readonly minus: readonly DayRange[];
};

export const planRangeSum = (range: DayRange): SumPlan => {
  const split = splitWholeMonths(range);
  const months = split.months ? [split.months] : [];
  const days: DayRange[] = [];
  const minus: DayRange[] = [];
  for (const edge of split.days) {
    // An edge range spans at most two months (a range without whole months may cross one month boundary).
    for (let index = monthIndex(edge.startDay); index <= monthIndex(edge.endDay); index++) {
      const month = monthOfIndex(index);
      const start = index === monthIndex(edge.startDay) ? edge.startDay : month;
      const end = monthEnd(month) < edge.endDay ? monthEnd(month) : edge.endDay;
      const inside = daySpan(start, end);
      if (daySpan(month, monthEnd(month)) - inside < inside) {
        months.push({ first: month, last: month });
        if (month < start) minus.push({ startDay: month, endDay: addDays(start, -1) });
        if (end < monthEnd(month)) minus.push({ startDay: addDays(end, 1), endDay: monthEnd(month) });
      } else {
        days.push({ startDay: start, endDay: end });
      }
    }
  }
  return { months, days, minus };
};
