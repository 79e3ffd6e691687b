// A minimal Prometheus registry that writes text format 0.0.4 the way
// prometheus_client's generate_latest does: HELP/TYPE per family (counters named with
// `_total`), labels in declaration order with `le` last, cumulative buckets, then
// `_count` and `_sum`, values as Python float reprs. `_created` series are left out.
import { goFloat } from './pyFormat';

export type LabelValues = readonly string[];

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelText(names: readonly string[], values: LabelValues, extra?: readonly [string, string]): string {
  const pairs = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`);
  if (extra !== undefined) pairs.push(`${extra[0]}="${extra[1]}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

abstract class Family {
  protected readonly series = new Map<string, { labels: LabelValues }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}
  protected key(labels: LabelValues): string {
    if (labels.length !== this.labelNames.length)
      throw new Error(`${this.name}: expected labels ${this.labelNames.join(',')}`);
    return labels.join('\u0000');
  }
  abstract expose(): string;
}

export class Histogram extends Family {
  private readonly data = new Map<string, { labels: LabelValues; buckets: number[]; sum: number; count: number }>();
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }
  /** Creates the series with zero counts, as a labelled child created at startup. */
  touch(labels: LabelValues): void {
    const k = this.key(labels);
    if (!this.data.has(k))
      this.data.set(k, { labels: [...labels], buckets: this.bounds.map(() => 0), sum: 0, count: 0 });
  }
  observe(labels: LabelValues, value: number): void {
    this.touch(labels);
    const s = this.data.get(this.key(labels))!;
    const i = this.bounds.findIndex((b) => value <= b);
    if (i >= 0) s.buckets[i]!++;
    s.sum += value;
    s.count++;
  }
  /** Count and sum of one series (tests and self-checks). */
  get(labels: LabelValues): { count: number; sum: number } | undefined {
    const s = this.data.get(this.key(labels));
    return s === undefined ? undefined : { count: s.count, sum: s.sum };
  }
  expose(): string {
    let out = `# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} histogram\n`;
    for (const s of this.data.values()) {
      let acc = 0;
      this.bounds.forEach((b, i) => {
        acc += s.buckets[i]!;
        out += `${this.name}_bucket${labelText(this.labelNames, s.labels, ['le', goFloat(b)])} ${goFloat(acc)}\n`;
      });
      out += `${this.name}_bucket${labelText(this.labelNames, s.labels, ['le', '+Inf'])} ${goFloat(s.count)}\n`;
      out += `${this.name}_count${labelText(this.labelNames, s.labels)} ${goFloat(s.count)}\n`;
      out += `${this.name}_sum${labelText(this.labelNames, s.labels)} ${goFloat(s.sum)}\n`;
    }
    return out;
  }
}

export class Counter extends Family {
  private readonly values = new Map<string, { labels: LabelValues; value: number }>();
  /** `name` without `_total`; the exposition appends it, as prometheus_client does. */
  touch(labels: LabelValues): void {
    const k = this.key(labels);
    if (!this.values.has(k)) this.values.set(k, { labels: [...labels], value: 0 });
  }
  inc(labels: LabelValues, by = 1): void {
    this.touch(labels);
    this.values.get(this.key(labels))!.value += by;
  }
  expose(): string {
    const n = `${this.name}_total`;
    let out = `# HELP ${n} ${escapeHelp(this.help)}\n# TYPE ${n} counter\n`;
    for (const s of this.values.values()) out += `${n}${labelText(this.labelNames, s.labels)} ${goFloat(s.value)}\n`;
    return out;
  }
}

/** A gauge whose series are computed at scrape time. */
export class Gauge extends Family {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly read: () => ReadonlyArray<readonly [LabelValues, number]>,
  ) {
    super(name, help, labelNames);
  }
  expose(): string {
    let out = `# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} gauge\n`;
    for (const [labels, v] of this.read()) out += `${this.name}${labelText(this.labelNames, labels)} ${goFloat(v)}\n`;
    return out;
  }
}

export class Registry {
  private readonly families: Family[] = [];
  add<F extends Family>(f: F): F {
    this.families.push(f);
    return f;
  }
  expose(): string {
    return this.families.map((f) => f.expose()).join('');
  }
}
