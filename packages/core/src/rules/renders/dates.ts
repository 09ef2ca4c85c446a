/**
 * UTC calendar-day arithmetic on `YYYY-MM-DD` strings. Web APIs only (runs under Deno).
 */

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** A UTC date of year `y`, month `m` (1–12), day `d`; unlike `Date.UTC`, years 0–99 stay themselves. */
const utc = (y: number, m: number, d: number): Date => {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date;
};

export const formatDay = (date: Date): string =>
  `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;

/** `yyyy-MM-dd` naming a real calendar date (years 0001–9999), else `undefined`. */
export const parseDay = (text: string): { y: number; m: number; d: number } | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  if (y < 1 || m < 1 || m > 12 || d < 1) return undefined;
  const date = utc(y, m, d);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return { y, m, d };
};

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`. */
export const epochDay = (day: string): number => {
  const parts = parseDay(day);
  if (!parts) throw new RangeError(`not a calendar day: ${day}`);
  return Math.round(utc(parts.y, parts.m, parts.d).getTime() / DAY_MS);
};

export const dayFromEpoch = (days: number): string => formatDay(new Date(days * DAY_MS));

export const addDays = (day: string, days: number): string => dayFromEpoch(epochDay(day) + days);

/** First day of the month of `day`. */
export const monthStart = (day: string): string => `${day.slice(0, 7)}-01`;

/** First day of the month `months` after the month of `day` (negative: before). */
export const addMonths = (day: string, months: number): string => {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const index = y * 12 + (m - 1) + months;
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1, 2)}-01`;
};

/**
 * Last day of the month of `day`, from the month's own length: stepping to the next month and back would leave the
 * four-digit years at 9999-12 (10000-01-01 sorts before 9999-12-31).
 */
export const monthEnd = (day: string): string => {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  // Day 0 of the next month is the last day of this one.
  return `${day.slice(0, 7)}-${pad(utc(y, m + 1, 0).getUTCDate(), 2)}`;
};

/** Months since year 0 of the month of `day`: compared as numbers, month arithmetic never leaves four digits. */
export const monthIndex = (day: string): number => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;

/** First day of the month `index` (monthIndex). */
export const monthOfIndex = (index: number): string =>
  `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1, 2)}-01`;

/** Number of months from the month of `from` to the month of `to`, both included. */
export const monthSpan = (from: string, to: string): number =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
  (Number(to.slice(5, 7)) - Number(from.slice(5, 7))) +
  1;

/** Number of days from `from` to `to`, both included. */
export const daySpan = (from: string, to: string): number => epochDay(to) - epochDay(from) + 1;

/** `YYYY-MM-DD` → `YYYY-MM-DDT00:00:00Z`, the `date` of a render group. */
export const groupDateTime = (day: string): string => `${day}T00:00:00Z`;

/** An inclusive range of UTC days. */
export type DayRange = { readonly startDay: string; readonly endDay: string };

/** The current calendar month (UTC) of `now`, first to last day. */
export const currentMonthRange = (now: Date): DayRange => {
  const today = formatDay(now);
  return { startDay: monthStart(today), endDay: monthEnd(today) };
};

/** The last `days` UTC days up to and including today. */
export const trailingDaysRange = (now: Date, days: number): DayRange => {
  const today = formatDay(now);
  return { startDay: addDays(today, -(Math.max(1, days) - 1)), endDay: today };
};
