import { type ExportedValue, type Labels, SeriesMetric } from './series-metric.ts';

type CounterState = { value: number };

/** One series of a counter, bound to its labels. */
export type CounterSeries = { inc(): void };

/** A counter that goes up by one per event (prom-client's exposition). */
export class SeriesCounter extends SeriesMetric<CounterState> {
  readonly type = 'counter';

  series(labels: Labels): CounterSeries {
    const state = this.bind(labels);
    return {
      inc() {
        state.value++;
      },
    };
  }

  protected fresh(): CounterState {
    return { value: 0 };
  }

  protected export(state: CounterState, labels: Labels, into: ExportedValue[]): void {
    into.push({ labels: {}, sharedLabels: labels, value: state.value });
  }
}
