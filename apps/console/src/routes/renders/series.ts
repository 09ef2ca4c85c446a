import type { ChartGroup } from '../../components/RenderChart.tsx';

/** Series names by total renders over the range, busiest first; `Others` always last. */
export const seriesOf = (groups: readonly ChartGroup[]): string[] => {
  const totals = new Map<string, number>();
  for (const group of groups) {
    for (const v of group.values) totals.set(v.series, (totals.get(v.series) ?? 0) + v.plain + v.watermarked);
  }
  return [...totals]
    .sort(([a, x], [b, y]) => Number(a === 'Others') - Number(b === 'Others') || y - x || a.localeCompare(b))
    .map(([name]) => name);
};
