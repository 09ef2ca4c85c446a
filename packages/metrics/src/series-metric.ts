import type { Registry } from 'prom-client';

export type Labels = Readonly<Record<string, string>>;

/** One line of a scrape, in the shape prom-client's own metrics hand to its registry. */
export type ExportedValue = {
  labels: Record<string, string | number>;
  sharedLabels: Labels;
  value: number;
  metricName?: string;
};

export type SeriesMetricConfig = {
  name: string;
  help: string;
  labelNames: readonly string[];
  registers: readonly Registry[];
};

/**
 * A metric whose series are bound once and then counted in plain fields, registered on prom-client registries as
 * prom-client's own metrics are (`registerMetric`: name, help, type, and the values at a scrape), so that exposition,
 * content types and `/metrics` stay prom-client's. prom-client's children validate and hash their label object on
 * every update, into a string key of every label name and value; on the proxy route (route templates and connector
 * ids as values) the four updates of a request cost about an eighth of its CPU.
 */
export abstract class SeriesMetric<State> {
  /** Not readonly: prom-client's registry renames counters when it writes OpenMetrics. */
  name: string;
  readonly help: string;
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly string[];
  readonly #series = new Map<string, { labels: Labels; state: State }>();

  constructor(config: SeriesMetricConfig) {
    this.name = config.name;
    this.help = config.help;
    this.#labelNames = config.labelNames;
    // prom-client's type for `registerMetric` names its own Metric class; what the registry reads of a metric is
    // `name`, `type`, `get`/`getForPromString` and `reset`, all here.
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  protected abstract fresh(): State;
  protected abstract export(state: State, labels: Labels, into: ExportedValue[]): void;

  /** The state of the series with these labels, made at its first use; callers keep it for later updates. */
  protected bind(labels: Labels): State {
    const key = this.#key(labels);
    let found = this.#series.get(key);
    if (!found) {
      // A copy in label-name order: the order prom-client writes them in, and an object no caller can change later.
      const own: Record<string, string> = {};
      for (const name of this.#labelNames) own[name] = labels[name] as string;
      found = { labels: Object.freeze(own), state: this.fresh() };
      this.#series.set(key, found);
    }
    return found.state;
  }

  /** Forgets the series with these labels (a deleted connector's): later scrapes no longer show it. */
  remove(labels: Labels): void {
    this.#series.delete(this.#key(labels));
  }

  reset(): void {
    this.#series.clear();
  }

  async getForPromString(): Promise<{
    name: string;
    help: string;
    type: string;
    values: ExportedValue[];
    aggregator: string;
  }> {
    const values: ExportedValue[] = [];
    for (const { labels, state } of this.#series.values()) this.export(state, labels, values);
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (`registry.getMetricsAsJSON`): each value's labels with its series' labels merged in. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ labels, sharedLabels, value, metricName }) => ({
        labels: { ...labels, ...sharedLabels },
        value,
        ...(metricName ? { metricName } : {}),
      })),
    };
  }

  #key(labels: Labels): string {
    let key = '';
    for (const name of this.#labelNames) {
      const value = labels[name];
      if (typeof value !== 'string')
        throw new TypeError(`${this.name}: label '${name}' needs a string value`);
      key += `${value}\u0000`;
    }
    for (const name in labels) {
      if (!this.#labelNames.includes(name)) throw new TypeError(`${this.name}: no label '${name}'`);
    }
    return key;
  }
}
