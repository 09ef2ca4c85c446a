import { type ExportedValue, type Labels, SeriesMetric, type SeriesMetricConfig } from './series-metric.ts';

type HistogramState = { counts: Float64Array; sum: number; count: number };

/** One series of a histogram, bound to its labels. */
export type HistogramSeries = { observe(value: number): void };

/** A histogram (prom-client's exposition: `_bucket` with `le`, cumulative, then `_sum` and `_count`). */
export class SeriesHistogram extends SeriesMetric<HistogramState> {
  readonly type = 'histogram';
  readonly #upperBounds: readonly number[];

  constructor(config: SeriesMetricConfig & { buckets: readonly number[] }) {
    super(config);
    this.#upperBounds = [...config.buckets].sort((a, b) => a - b);
  }

  series(labels: Labels): HistogramSeries {
    const state = this.bind(labels);
    const upperBounds = this.#upperBounds;
    return {
      observe(value) {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        for (let i = 0; i < upperBounds.length; i++) {
          if (value <= (upperBounds[i] as number)) {
            (state.counts[i] as number)++;
            break;
          }
        }
        state.sum += value;
        state.count++;
      },
    };
  }

  protected fresh(): HistogramState {
    return { counts: new Float64Array(this.#upperBounds.length), sum: 0, count: 0 };
  }

  protected export(state: HistogramState, labels: Labels, into: ExportedValue[]): void {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    for (let i = 0; i < this.#upperBounds.length; i++) {
      cumulative += state.counts[i] as number;
      into.push({
        labels: { le: this.#upperBounds[i] as number },
        sharedLabels: labels,
        value: cumulative,
        metricName: bucket,
      });
    }
    into.push(
      { labels: { le: '+Inf' }, sharedLabels: labels, value: state.count, metricName: bucket },
      { labels: {}, sharedLabels: labels, value: state.sum, metricName: `${this.name}_sum` },
      { labels: {}, sharedLabels: labels, value: state.count, metricName: `${this.name}_count` },
    );
  }
}
