const integer = new Intl.NumberFormat('en');

export const count = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : integer.format(value);

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Bytes in binary units, three significant digits: `1.5 GiB`. */
export const bytes = (value: number | null | undefined): string => {
  if (value === null || value === undefined) return '—';
  let unit = 0;
  let scaled = value;
  while (scaled >= 1024 && unit < UNITS.length - 1) {
    scaled /= 1024;
    unit++;
  }
  return `${unit === 0 ? scaled : scaled.toPrecision(3)} ${UNITS[unit]}`;
};

/** A render group's label: `Nov 2026` by month, `22 Nov` by day (UTC, as the API groups). */
export const groupLabel = (iso: string, groupBy: 'year' | 'month'): string =>
  new Date(iso).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    ...(groupBy === 'year' ? { month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' }),
  });

export const dateTime = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }) +
  ' UTC';

/** `lastSeen` is in seconds since the epoch. */
export const lastSeen = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined
    ? 'never'
    : new Date(seconds * 1000).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium' });
