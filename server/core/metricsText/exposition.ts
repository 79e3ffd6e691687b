// Parses a Prometheus text exposition (format 0.0.4) into families and series, in one
// pass over the lines. It never throws on input: a line it cannot use becomes a
// ParseProblem and is skipped, and every other line still counts.
//
// Grouping follows what prometheus_client (which vLLM and vLLM-Omni use) writes:
//   - histogram `X`: samples `X_bucket{le=..}`, `X_sum`, `X_count`;
//   - counter declared as `X_total` (or OpenMetrics-style `X` with `X_total` samples);
//   - `_created` samples come in a separate `# TYPE X_created gauge` family after the
//     parent; they are folded into the parent's series instead of kept as a gauge.
// Samples of a name never declared by `# TYPE` form an untyped family of that name.
//
// A text that ends inside a line was cut there: that line is not read (a number cut inside its
// digits is a wrong number), and the series the cut may have reached (seriesAtCut.ts) keep no
// numbers, only that they were cut. Which family's values the end of the text may be inside is
// told by the sample names read last, not by the last `# TYPE`: a cut in the `X_created` gauge
// section after family X leaves X's values whole.
import { labelsKey, setLabel, withoutLabels } from './labels';
import { canonicalMetricName } from './metricNames';
import type {
  HistogramBucket,
  HistogramSeries,
  Labels,
  MetricFamily,
  MetricType,
  ParsedExposition,
  ParseProblem,
  ScalarSeries,
  SummaryQuantile,
  SummarySeries,
} from './model';
import { parseCommentLine, parseNumber, parseSampleLine, type SampleLine } from './sampleLine';
import { WHOLE_INPUT, type ScrapeEnd } from './scrapeCut';
import { SeriesAtCut } from './seriesAtCut';

const METRIC_TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A histogram or summary series being read: points keyed by `le` (buckets) or `quantile`. */
interface DistributionBuilder {
  readonly labels: Labels;
  readonly points: Map<number, number>;
  sum: number | null;
  count: number | null;
  created: number | null;
  /** The scrape was cut where it may have lost lines of this series. */
  cut: boolean;
}

interface FamilyBuilder {
  readonly name: string;
  type: MetricType;
  help: string | null;
  typeDeclared: boolean;
  hasSamples: boolean;
  readonly scalars: Map<string, { labels: Labels; value: number; timestampMs: number | null }>;
  /** `_created` of counter series, joined to the value series at the end. */
  readonly scalarCreated: Map<string, number>;
  /** Histogram or summary series (by the family's type). */
  readonly distributions: Map<string, DistributionBuilder>;
}

/** A name in the declaration table: a family, or a `_created` gauge folded into one. */
type Declaration = { readonly family: FamilyBuilder } | { readonly createdOf: FamilyBuilder };

type SampleRole = 'value' | 'bucket' | 'sum' | 'count' | 'created' | 'quantile';

function newFamily(name: string, type: MetricType): FamilyBuilder {
  return {
    name,
    type,
    help: null,
    typeDeclared: false,
    hasSamples: false,
    scalars: new Map(),
    scalarCreated: new Map(),
    distributions: new Map(),
  };
}

function labelsOf(sample: SampleLine): Labels {
  const labels: Record<string, string> = {};
  for (const [name, value] of sample.labels) setLabel(labels, name, value);
  return labels;
}

class ExpositionBuilder {
  private readonly declarations = new Map<string, Declaration>();
  private readonly order: FamilyBuilder[] = [];
  readonly problems: ParseProblem[] = [];
  readonly atCut = new SeriesAtCut<FamilyBuilder>();
  /**
   * The family whose value lines (not `_created`) the text is among at this point: its next line
   * may be another series of it. null: past a family's values (in its `_created` section, or
   * after a comment that follows its samples).
   */
  private valuesOf: FamilyBuilder | null = null;
  sampleCount = 0;

  private problem(line: number, message: string): void {
    this.problems.push({ line, message });
  }

  private addFamily(name: string, type: MetricType): FamilyBuilder {
    const family = newFamily(name, type);
    this.declarations.set(name, { family });
    this.order.push(family);
    return family;
  }

  private familyOf(name: string): FamilyBuilder | undefined {
    const declaration = this.declarations.get(name);
    return declaration !== undefined && 'family' in declaration ? declaration.family : undefined;
  }

  /** The family whose `_created` samples are named `name`, if `name` is such a name. */
  private createdParent(name: string): FamilyBuilder | undefined {
    if (!name.endsWith('_created')) return undefined;
    const base = name.slice(0, -'_created'.length);
    const parent = this.familyOf(base);
    if (parent !== undefined && parent.type !== 'gauge' && parent.type !== 'untyped') return parent;
    const counter = this.familyOf(base + '_total');
    return counter !== undefined && counter.type === 'counter' ? counter : undefined;
  }

  help(line: number, name: string, help: string): void {
    const declaration = this.declarations.get(name);
    if (declaration === undefined) {
      const parent = this.createdParent(name);
      if (parent !== undefined) this.declarations.set(name, { createdOf: parent });
      else this.addFamily(name, 'untyped').help = help;
      return;
    }
    if (!('family' in declaration)) return; // the parent's help already says it
    if (declaration.family.help !== null) this.problem(line, `duplicate # HELP for ${name}; the first one is kept`);
    else declaration.family.help = help;
  }

  type(line: number, name: string, typeText: string): void {
    if (!METRIC_TYPES.has(typeText)) {
      this.problem(line, `unknown metric type "${typeText}" for ${name}; line ignored`);
      return;
    }
    const type = typeText as MetricType;
    const foldable = type === 'gauge' || type === 'untyped';
    const declaration = this.declarations.get(name);
    if (declaration === undefined) {
      const parent = foldable ? this.createdParent(name) : undefined;
      if (parent !== undefined) this.declarations.set(name, { createdOf: parent });
      else this.declare(this.addFamily(name, type), type);
      return;
    }
    if (!('family' in declaration)) {
      if (!foldable) this.declare(this.addFamily(name, type), type); // a real family after all
      return;
    }
    const family = declaration.family;
    if (family.typeDeclared) {
      this.problem(line, `duplicate # TYPE for ${name}; the first one is kept`);
    } else if (family.hasSamples) {
      this.problem(line, `# TYPE for ${name} comes after its samples; ignored`);
    } else {
      this.declare(family, type);
    }
  }

  /**
   * A `# HELP` or `# TYPE` line of `name` was read: the text is in that family's section now, or
   * past every family's values (a `_created` gauge folded into its parent, an unknown name).
   */
  declared(name: string): void {
    const declaration = this.declarations.get(name);
    this.valuesOf = declaration !== undefined && 'family' in declaration ? declaration.family : null;
  }

  /** The family whose values the text may have been cut among; null when it was whole or past them. */
  valuesAtEnd(): FamilyBuilder | null {
    return this.valuesOf;
  }

  /**
   * The text ends inside a comment line: a family's `# HELP` or `# TYPE` begins there (its own or
   * its `_created` gauge's), so the values read before it are whole.
   */
  cutCommentSeen(): void {
    if (this.valuesOf?.hasSamples === true) this.valuesOf = null;
  }

  private declare(family: FamilyBuilder, type: MetricType): void {
    family.type = type;
    family.typeDeclared = true;
  }

  private resolve(name: string): { family: FamilyBuilder; role: SampleRole } | { error: string } {
    const declaration = this.declarations.get(name);
    if (declaration !== undefined) {
      if (!('family' in declaration)) return { family: declaration.createdOf, role: 'created' };
      const family = declaration.family;
      if (family.type === 'histogram')
        return { error: `histogram ${name} needs a _bucket, _sum or _count sample name` };
      return { family, role: family.type === 'summary' ? 'quantile' : 'value' };
    }
    const suffixed = this.resolveSuffix(name);
    if (suffixed !== undefined) return suffixed;
    return { family: this.addFamily(name, 'untyped'), role: 'value' };
  }

  private resolveSuffix(name: string): { family: FamilyBuilder; role: SampleRole } | undefined {
    const underscore = name.lastIndexOf('_');
    if (underscore <= 0) return undefined;
    const base = name.slice(0, underscore);
    const suffix = name.slice(underscore);
    const family = this.familyOf(base);
    const type = family?.type;
    if (family !== undefined) {
      if (suffix === '_bucket' && type === 'histogram') return { family, role: 'bucket' };
      if ((suffix === '_sum' || suffix === '_count') && (type === 'histogram' || type === 'summary')) {
        return { family, role: suffix === '_sum' ? 'sum' : 'count' };
      }
      if (suffix === '_total' && type === 'counter') return { family, role: 'value' };
    }
    if (suffix === '_created') {
      const parent = this.createdParent(name);
      if (parent !== undefined) return { family: parent, role: 'created' };
    }
    return undefined;
  }

  sample(line: number, sample: SampleLine): void {
    const resolved = this.resolve(sample.name);
    if ('error' in resolved) {
      this.problem(line, resolved.error);
      return;
    }
    const { family, role } = resolved;
    // A `_created` sample says nothing of where the values are: in a gauge section of its own
    // (prometheus_client's text format) they are all before it, inline (OpenMetrics) they go on.
    if (role !== 'created') this.valuesOf = family;
    const labels = labelsOf(sample);
    const accepted = this.apply(family, role, labels, sample);
    if (accepted !== true) {
      this.problem(line, accepted);
      return;
    }
    family.hasSamples = true;
    this.sampleCount++;
    this.atCut.lineRead(family, distributionKey(family, role, labels));
  }

  /** The sample the text ends inside, not read: what its whole name and labels show of where the cut is. */
  cutSample(sample: SampleLine): void {
    const declaration = this.declarations.get(sample.name);
    let resolved: { family: FamilyBuilder; role: SampleRole } | undefined;
    if (declaration === undefined) resolved = this.resolveSuffix(sample.name);
    else if ('family' in declaration) {
      const family = declaration.family;
      if (family.type === 'histogram') return; // no sample name of it: says nothing of where it is
      resolved = { family, role: family.type === 'summary' ? 'quantile' : 'value' };
    } else resolved = { family: declaration.createdOf, role: 'created' };
    if (resolved === undefined) {
      // A name not seen before: a family that begins here, after the one before it ended.
      this.atCut.cutLineSeen(null, null);
      this.valuesOf = null;
      return;
    }
    const { family, role } = resolved;
    if (role !== 'created') this.valuesOf = family;
    const labels = distributionLabels(family, role, labelsOf(sample));
    const key = labels === null ? null : labelsKey(labels);
    this.atCut.cutLineSeen(family, key);
    // Its whole name and labels say the series is exposed: a series cut, not one the server hid.
    if (labels === null || key === null) return;
    const series = family.distributions.get(key);
    if (series !== undefined) series.cut = true;
    else family.distributions.set(key, { labels, points: new Map(), sum: null, count: null, created: null, cut: true });
  }

  /** true, or the reason the sample was rejected. */
  private apply(family: FamilyBuilder, role: SampleRole, labels: Labels, sample: SampleLine): true | string {
    const { name, value } = sample;
    if (family.type === 'histogram') return applyDistribution(family, role, labels, name, value, 'bucket', 'le');
    if (family.type === 'summary') return applyDistribution(family, role, labels, name, value, 'quantile', 'quantile');
    const key = labelsKey(labels);
    if (role === 'created') {
      if (family.scalarCreated.has(key)) return `duplicate sample ${name}; the first one is kept`;
      family.scalarCreated.set(key, value);
      return true;
    }
    if (family.scalars.has(key)) return `duplicate sample ${name}; the first one is kept`;
    family.scalars.set(key, { labels, value, timestampMs: sample.timestampMs });
    return true;
  }

  result(unterminatedLine: number | null, end: ScrapeEnd): ParsedExposition {
    if (unterminatedLine !== null || end.gzipBroke) {
      for (const family of this.order)
        for (const [key, series] of family.distributions) series.cut ||= this.atCut.mayBeCut(family, key, series.count);
    }
    return {
      families: this.order.map(finishFamily),
      problems: this.problems,
      sampleCount: this.sampleCount,
      unterminatedLine,
      valuesAtEnd: this.valuesOf?.name ?? null,
    };
  }
}

/** The labels of the histogram or summary series a sample is of; null for any other sample (counter, gauge, `_created`). */
function distributionLabels(family: FamilyBuilder, role: SampleRole, labels: Labels): Labels | null {
  if (role === 'created' || role === 'value') return null;
  if (family.type !== 'histogram' && family.type !== 'summary') return null;
  if (role === 'bucket') return withoutLabels(labels, ['le']);
  return role === 'quantile' ? withoutLabels(labels, ['quantile']) : labels;
}

function distributionKey(family: FamilyBuilder, role: SampleRole, labels: Labels): string | null {
  const series = distributionLabels(family, role, labels);
  return series === null ? null : labelsKey(series);
}

/** One `_bucket`/`_sum`/`_count`/`_created` (histogram) or quantile/`_sum`/`_count`/`_created` (summary) sample. */
function applyDistribution(
  family: FamilyBuilder,
  role: SampleRole,
  labels: Labels,
  name: string,
  value: number,
  pointRole: 'bucket' | 'quantile',
  pointLabel: 'le' | 'quantile',
): true | string {
  let point: number | undefined;
  if (role === pointRole) {
    const text = labels[pointLabel];
    if (!Object.prototype.hasOwnProperty.call(labels, pointLabel) || text === undefined)
      return `${name} has no "${pointLabel}" label`;
    point = parseNumber(text);
    if (point === undefined || Number.isNaN(point)) return `${name} has an invalid ${pointLabel}="${text}"`;
  }
  const seriesLabels = role === pointRole ? withoutLabels(labels, [pointLabel]) : labels;
  const key = labelsKey(seriesLabels);
  let series = family.distributions.get(key);
  if (series === undefined) {
    series = { labels: seriesLabels, points: new Map(), sum: null, count: null, created: null, cut: false };
    family.distributions.set(key, series);
  }
  const duplicate = `duplicate sample ${name}; the first one is kept`;
  switch (role) {
    case pointRole:
      if (point === undefined || series.points.has(point)) return duplicate;
      series.points.set(point, value);
      return true;
    case 'sum':
      if (series.sum !== null) return duplicate;
      series.sum = value;
      return true;
    case 'count':
      if (series.count !== null) return duplicate;
      series.count = value;
      return true;
    case 'created':
      if (series.created !== null) return duplicate;
      series.created = value;
      return true;
    default:
      return `unexpected sample ${name} in ${family.type} ${family.name}`;
  }
}

function finishHistogram(builder: DistributionBuilder): HistogramSeries {
  if (builder.cut)
    return { labels: builder.labels, buckets: [], sum: null, count: null, created: builder.created, cut: true };
  const buckets: HistogramBucket[] = [...builder.points].map(([le, cumulative]) => ({ le, cumulative }));
  buckets.sort((a, b) => a.le - b.le);
  const last = buckets[buckets.length - 1];
  // prometheus_client always writes _count; the +Inf bucket is the same number.
  const count = builder.count ?? (last !== undefined && last.le === Infinity ? last.cumulative : null);
  return { labels: builder.labels, buckets, sum: builder.sum, count, created: builder.created };
}

function finishSummary(builder: DistributionBuilder): SummarySeries {
  if (builder.cut)
    return { labels: builder.labels, quantiles: [], sum: null, count: null, created: builder.created, cut: true };
  const quantiles: SummaryQuantile[] = [...builder.points].map(([quantile, value]) => ({ quantile, value }));
  quantiles.sort((a, b) => a.quantile - b.quantile);
  return { labels: builder.labels, quantiles, sum: builder.sum, count: builder.count, created: builder.created };
}

function finishFamily(family: FamilyBuilder): MetricFamily {
  const base = { name: family.name, canonicalName: canonicalMetricName(family.name), help: family.help };
  switch (family.type) {
    case 'histogram':
      return { ...base, type: 'histogram', series: [...family.distributions.values()].map(finishHistogram) };
    case 'summary':
      return { ...base, type: 'summary', series: [...family.distributions.values()].map(finishSummary) };
    default: {
      const series: ScalarSeries[] = [];
      for (const [key, scalar] of family.scalars) {
        series.push({ ...scalar, created: family.scalarCreated.get(key) ?? null });
      }
      return { ...base, type: family.type, series };
    }
  }
}

/**
 * Parses a whole exposition body. Never throws; see `problems` for skipped lines. `end`: how its
 * input ended besides its text (its gzip data broke off: cut wherever the text ends).
 */
export function parseExposition(text: string, inputEnd: ScrapeEnd = WHOLE_INPUT): ParsedExposition {
  const builder = new ExpositionBuilder();
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let start = 0;
  let lineNumber = 0;
  let unterminatedLine: number | null = null;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    lineNumber++;
    let line = body.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    start = end + 1;
    if (end === body.length && firstNonBlank(line) !== -1) {
      unterminatedLine = lineNumber;
      seeCutLine(builder, lineNumber, line);
    } else readLine(builder, lineNumber, line);
  }
  return builder.result(unterminatedLine, inputEnd);
}

const CUT_LINE_NOT_READ = 'the text ends inside this line (no line feed after it): cut short, so it is not read';

/** The line the text ends inside: not read, only what it shows of where the cut is. */
function seeCutLine(builder: ExpositionBuilder, lineNumber: number, line: string): void {
  builder.problems.push({ line: lineNumber, message: CUT_LINE_NOT_READ });
  if (line.charCodeAt(firstNonBlank(line)) === 0x23 /* # */) {
    builder.atCut.lineRead(null, null);
    builder.cutCommentSeen();
    return;
  }
  const parsed = parseSampleLine(line);
  if (parsed.ok) builder.cutSample(parsed.sample);
}

function readLine(builder: ExpositionBuilder, lineNumber: number, line: string): void {
  const first = firstNonBlank(line);
  if (first === -1) return;
  if (line.charCodeAt(first) === 0x23 /* # */) {
    builder.atCut.lineRead(null, null);
    const comment = parseCommentLine(line);
    if (comment.kind === 'help' || comment.kind === 'type') {
      if (comment.kind === 'help') builder.help(lineNumber, comment.name, comment.help);
      else builder.type(lineNumber, comment.name, comment.type);
      builder.declared(comment.name);
    } else if (comment.kind === 'invalid') builder.problems.push({ line: lineNumber, message: comment.message });
    return;
  }
  const parsed = parseSampleLine(line);
  if (parsed.ok) builder.sample(lineNumber, parsed.sample);
  else builder.problems.push({ line: lineNumber, message: parsed.message });
}

function firstNonBlank(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09) return i;
  }
  return -1;
}
