import { AggregatorRegistry, Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TallyCounter, TallyHistogram } from '../../src/observability/tallies.js';

/** A registry holding the tallies, as the metrics listener prints them. */
function registryOf(...tallies: Array<TallyCounter | TallyHistogram>): Registry {
  const registry = new Registry();
  for (const tally of tallies) registry.registerMetric(tally as unknown as Metric);
  return registry;
}

describe('tallies, the metrics of the hot paths', () => {
  it('print as Prometheus counters, one line per series, labels in their declared order', async () => {
    const requests = new TallyCounter('requests_total', 'Requests.', ['surface', 'status']);
    requests.of('api', '200').value += 2;
    requests.of('redirect', '302').value += 1;
    requests.of('api', '200').value += 1;
    expect(await registryOf(requests).metrics()).toBe(
      '# HELP requests_total Requests.\n# TYPE requests_total counter\nrequests_total{surface="api",status="200"} 3\nrequests_total{surface="redirect",status="302"} 1\n',
    );
  });

  it('leave out the series that never moved: a counter at 0, a histogram with no observation', async () => {
    const requests = new TallyCounter('requests_total', 'Requests.', ['status']);
    requests.of('200').value += 1;
    requests.of('500');
    const durations = new TallyHistogram('seconds', 'Time.', ['call'], [1]);
    durations.of('used').observe(0.5);
    durations.of('unused');
    const text = await registryOf(requests, durations).metrics();
    expect(text).toContain('requests_total{status="200"} 1\n');
    expect(text).not.toContain('status="500"');
    expect(text).toContain('seconds_count{call="used"} 1\n');
    expect(text).not.toContain('unused');
  });

  it('hand out one series object per label values, which counting only adds to', () => {
    const counter = new TallyCounter('c_total', 'C.', ['kind']);
    expect(counter.of('a')).toBe(counter.of('a'));
    expect(counter.of('a')).not.toBe(counter.of('b'));
  });

  it('print as Prometheus histograms: cumulative buckets, +Inf, sum and count', async () => {
    const durations = new TallyHistogram('seconds', 'Time.', ['surface'], [0.01, 0.1, 1]);
    const series = durations.of('api');
    for (const value of [0.005, 0.01, 0.05, 2]) series.observe(value);
    expect(await registryOf(durations).metrics()).toBe(
      [
        '# HELP seconds Time.',
        '# TYPE seconds histogram',
        'seconds_bucket{surface="api",le="0.01"} 2',
        'seconds_bucket{surface="api",le="0.1"} 3',
        'seconds_bucket{surface="api",le="1"} 3',
        'seconds_bucket{surface="api",le="+Inf"} 4',
        'seconds_sum{surface="api"} 2.065',
        'seconds_count{surface="api"} 4',
        '',
      ].join('\n'),
    );
  });

  it('set themselves from numbers kept elsewhere at each scrape, when given a collect', async () => {
    let hits = 1;
    const lookups = new TallyCounter('hits_total', 'Hits.', ['cache'], (counter) => {
      counter.of('links').value = hits;
    });
    expect(await registryOf(lookups).metrics()).toContain('hits_total{cache="links"} 1\n');
    hits = 5;
    expect(await registryOf(lookups).metrics()).toContain('hits_total{cache="links"} 5\n');
  });

  it("add up across processes as prom-client's cluster aggregation does it (WORKERS=N)", async () => {
    const worker = async (redirects: number, seconds: number) => {
      const counter = new TallyCounter('requests_total', 'Requests.', ['status']);
      counter.of('302').value = redirects;
      const histogram = new TallyHistogram('seconds', 'Time.', [], [0.1]);
      histogram.of().observe(seconds);
      return registryOf(counter, histogram).getMetricsAsJSON();
    };
    const sum = AggregatorRegistry.aggregate([await worker(3, 0.05), await worker(4, 0.5)]);
    const text = await sum.metrics();
    expect(text).toContain('requests_total{status="302"} 7\n');
    expect(text).toContain('seconds_bucket{le="0.1"} 1\n');
    expect(text).toContain('seconds_bucket{le="+Inf"} 2\n');
    expect(text).toContain('seconds_count 2\n');
  });
});
