/**
 * The one chart palette (CSS variables of styles.css, the same hues in light and dark schemes): series by index,
 * `Others` always neutral.
 */
export const SERIES_COUNT = 8;

export const seriesColor = (index: number, name?: string): string =>
  name === 'Others' ? 'var(--series-other)' : `var(--series-${index % SERIES_COUNT})`;
