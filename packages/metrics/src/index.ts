export { type CounterSeries, SeriesCounter } from './series-counter.ts';
export { type HistogramSeries, SeriesHistogram } from './series-histogram.ts';
export type { Labels } from './series-metric.ts';
