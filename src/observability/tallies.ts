import type { Aggregator } from 'prom-client';

/**
 * Counters and histograms for the paths that run tens of thousands of times a second. prom-client's own `inc` and
 * `observe` build a label object and a hash string on every call; here a series is looked up once and kept, and
 * counting is adding to a number on it. Each class answers prom-client's `get()` (the shape `getMetricsAsJSON`
 * gives), so a prom-client Registry prints it and the AggregatorRegistry of WORKERS=N adds the workers' up.
 * A series that never moved (a counter at 0, a histogram with no observation) is left out: series are made ahead
 * of use (a timer per store call, a cache's hits and misses), and hundreds of zeros hide the few that say something.
 */
interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: MetricValue[];
  aggregator: Aggregator;
}

abstract class Tally<S> {
  readonly aggregator: Aggregator = 'sum';
  private series = new Map<string, { labels: Record<string, string>; series: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  /** The series of these label values, in labelNames' order: made on first use, the same object after that. */
  of(...values: string[]): S {
    const key = values.join('\u0000');
    let found = this.series.get(key);
    if (!found) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i] ?? '']));
      this.series.set(key, (found = { labels, series: this.fresh() }));
    }
    return found.series;
  }

  protected abstract fresh(): S;

  protected each(): Iterable<{ labels: Record<string, string>; series: S }> {
    return this.series.values();
  }
}

export interface CounterSeries {
  value: number;
}

export class TallyCounter extends Tally<CounterSeries> {
  readonly type = 'counter';

  /** `collect`, when given, sets the series from numbers kept elsewhere just before each scrape. */
  constructor(name: string, help: string, labelNames: readonly string[], private readonly collect?: (counter: TallyCounter) => void) {
    super(name, help, labelNames);
  }

  protected fresh(): CounterSeries {
    return { value: 0 };
  }

  async get(): Promise<Exported> {
    this.collect?.(this);
    const values = [...this.each()].filter(({ series }) => series.value !== 0).map(({ labels, series }) => ({ labels, value: series.value }));
    return { name: this.name, help: this.help, type: 'counter', values, aggregator: this.aggregator };
  }
}

export class HistogramSeries {
  /** Observations per bucket (not cumulative), the last one above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export class TallyHistogram extends Tally<HistogramSeries> {
  readonly type = 'histogram';

  constructor(name: string, help: string, labelNames: readonly string[], private readonly bounds: readonly number[]) {
    super(name, help, labelNames);
  }

  protected fresh(): HistogramSeries {
    return new HistogramSeries(this.bounds);
  }

  async get(): Promise<Exported> {
    const values: MetricValue[] = [];
    for (const { labels, series } of this.each()) {
      if (series.count === 0) continue;
      let below = 0;
      this.bounds.forEach((le, i) => {
        below += series.counts[i]!;
        values.push({ labels: { ...labels, le }, value: below, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...labels, le: '+Inf' }, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: this.aggregator };
  }
}
