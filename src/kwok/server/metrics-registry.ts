/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, gauges read at scrape time
 * and histograms, all with labels. prom-client is not a dependency and the controller needs only
 * these three shapes.
 */
export type Labels = Record<string, string>;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function renderLabels(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels);
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return '';
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** Series key. Callers pass label objects in a fixed key order, so no sorting is needed (hot path). */
function keyOf(labels: Labels): string {
  let key = '';
  for (const name in labels) key += `${name}\u0000${labels[name]}\u0001`;
  return key;
}

interface Metric {
  render(): string;
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${renderLabels(labels)} ${formatValue(value)}`);
    return lines.join('\n');
  }
}

export type Sample = [Labels, number];

/** A gauge whose samples are collected when scraped. */
export class Gauge implements Metric {
  constructor(readonly name: string, readonly help: string, private readonly collect: () => Sample[], private readonly type: 'gauge' | 'counter' = 'gauge') {}

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const [labels, value] of this.collect()) lines.push(`${this.name}${renderLabels(labels)} ${formatValue(value)}`);
    return lines.join('\n');
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(readonly name: string, readonly help: string, readonly buckets: readonly number[]) {}

  observe(labels: Labels, value: number): void {
    const key = keyOf(labels);
    let entry = this.series.get(key);
    if (!entry) this.series.set(key, (entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    entry.sum += value;
    entry.count++;
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) entry.counts[i]!++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.series.values()) {
      this.buckets.forEach((le, i) => lines.push(`${this.name}_bucket${renderLabels(labels, ['le', formatValue(le)])} ${counts[i]}`));
      lines.push(`${this.name}_bucket${renderLabels(labels, ['le', '+Inf'])} ${count}`);
      lines.push(`${this.name}_sum${renderLabels(labels)} ${formatValue(sum)}`);
      lines.push(`${this.name}_count${renderLabels(labels)} ${count}`);
    }
    return lines.join('\n');
  }
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];

  register<T extends Metric>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }

  render(): string {
    return this.metrics.map((m) => m.render()).join('\n') + '\n';
  }
}
