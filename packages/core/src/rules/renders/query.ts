import { type FieldErrors, ValidationError } from '../../errors.ts';
import {
  addDays,
  addMonths,
  daySpan,
  formatDay,
  monthEnd,
  monthSpan,
  monthStart,
  parseDay,
} from './dates.ts';

export const RENDER_GROUP_BY = ['year', 'month'] as const;
export type RenderGroupBy = (typeof RENDER_GROUP_BY)[number];

/** Largest ranges a render query may ask for (docs/admin-api.md). */
export const MAX_MONTH_GROUPS = 120;
export const MAX_DAY_GROUPS = 366;
/** Default ranges (docs/admin-api.md). */
export const DEFAULT_MONTH_GROUPS = 12;
export const DEFAULT_DAY_GROUPS = 30;

const INT32_MAX = 2_147_483_647;

/** A parsed render query: which groups to return and which UTC days to count (both inclusive). */
export type RenderQuery = {
  readonly groupBy: RenderGroupBy;
  /** Only when the caller allowed it and the query carried it. */
  readonly top?: number;
  /** Start day (`YYYY-MM-DD`) of every group, oldest first. */
  readonly groups: readonly string[];
  /** First and last UTC day counted; renders outside are not counted, not even in the first or last group. */
  readonly startDay: string;
  readonly endDay: string;
};

type Raw = Record<string, unknown>;

/** One query value: absent, one string (or number, from typed transports), or a repeated key (an error). */
const single = (raw: Raw, name: string, errors: FieldErrors): string | undefined => {
  const value = raw[name];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    errors[name] = [`${name} may be given only once.`];
    return undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') {
    errors[name] = [`${name} must be a string.`];
    return undefined;
  }
  return value;
};

const parseTop = (text: string): number | undefined => {
  if (!/^\+?\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 && value <= INT32_MAX ? value : undefined;
};

/**
 * Parses the query of the render endpoints (docs/admin-api.md, docs/admin-api.md) or throws a ValidationError
 * whose `errors` names every bad parameter. `now` fixes "today" (UTC).
 */
export const parseRenderQuery = (raw: Raw, now: Date, options: { allowTop: boolean }): RenderQuery => {
  const errors: FieldErrors = {};
  const groupByText = single(raw, 'groupBy', errors);
  const startText = single(raw, 'startDate', errors);
  const endText = single(raw, 'endDate', errors);
  const topText = options.allowTop ? single(raw, 'top', errors) : undefined;

  let groupBy: RenderGroupBy | undefined;
  if (groupByText === undefined) {
    errors.groupBy ??= ['groupBy is required: year or month.'];
  } else if (groupByText === 'year' || groupByText === 'month') {
    groupBy = groupByText;
  } else {
    errors.groupBy = ['groupBy must be year or month.'];
  }

  let top: number | undefined;
  if (topText !== undefined) {
    top = parseTop(topText);
    if (top === undefined) errors.top = ['top must be an integer of at least 1.'];
  }

  const start = startText === undefined ? undefined : parseDay(startText);
  const end = endText === undefined ? undefined : parseDay(endText);
  if (startText !== undefined && !start)
    errors.startDate = ['startDate must be a calendar date as yyyy-MM-dd.'];
  if (endText !== undefined && !end) errors.endDate = ['endDate must be a calendar date as yyyy-MM-dd.'];
  if (startText !== undefined && endText === undefined && !errors.endDate) {
    errors.endDate = ['endDate is required when startDate is given.'];
  }
  if (endText !== undefined && startText === undefined && !errors.startDate) {
    errors.startDate = ['startDate is required when endDate is given.'];
  }

  let range: { startDay: string; endDay: string } | undefined;
  if (start && end && startText !== undefined && endText !== undefined) {
    if (startText > endText) {
      errors.startDate = ['startDate must not be after endDate.'];
    } else if (groupBy === 'year' && monthSpan(startText, endText) > MAX_MONTH_GROUPS) {
      errors.endDate = [`With groupBy=year the range may cover at most ${MAX_MONTH_GROUPS} months.`];
    } else if (groupBy === 'month' && daySpan(startText, endText) > MAX_DAY_GROUPS) {
      errors.endDate = [`With groupBy=month the range may cover at most ${MAX_DAY_GROUPS} days.`];
    } else {
      range = { startDay: startText, endDay: endText };
    }
  }

  const messages = Object.values(errors).flat();
  if (messages.length > 0 || groupBy === undefined) {
    throw new ValidationError(`The render query is not valid: ${messages.join(' ')}`, errors);
  }

  const today = formatDay(now);
  const groups: string[] = [];
  let startDay: string;
  let endDay: string;
  if (groupBy === 'year') {
    if (range) {
      ({ startDay, endDay } = range);
    } else {
      startDay = addMonths(today, -(DEFAULT_MONTH_GROUPS - 1));
      endDay = monthEnd(today);
    }
    // Counted, not compared: the month after 9999-12 has no four-digit name to compare with.
    const months = monthSpan(startDay, endDay);
    for (let i = 0; i < months; i++) groups.push(addMonths(startDay, i));
  } else {
    if (range) {
      ({ startDay, endDay } = range);
    } else {
      startDay = addDays(today, -(DEFAULT_DAY_GROUPS - 1));
      endDay = today;
    }
    const days = daySpan(startDay, endDay);
    for (let i = 0; i < days; i++) groups.push(addDays(startDay, i));
  }

  return { groupBy, ...(top === undefined ? {} : { top }), groups, startDay, endDay };
};

/** Start day of the group a counted day belongs to. */
export const groupOf = (query: RenderQuery, day: string): string =>
  query.groupBy === 'year' ? monthStart(day) : day;
