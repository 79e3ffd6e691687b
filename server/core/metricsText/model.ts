// What a parsed Prometheus text exposition (format 0.0.4) looks like: families ->
// series -> values. Histogram series carry their buckets already grouped, so callers
// never have to reassemble `_bucket`/`_sum`/`_count` samples themselves.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

/** A line that could not be used. Lines are 1-based; the line is skipped, nothing else. */
export interface ParseProblem {
  readonly line: number;
  readonly message: string;
}

/** Label name -> value. Own enumerable properties only (a label may be named `__proto__`). */
export type Labels = Readonly<Record<string, string>>;

export interface HistogramBucket {
  /** Inclusive upper bound; the last bucket of a complete histogram is +Infinity. */
  readonly le: number;
  /** Observations <= le (cumulative, as exposed). */
  readonly cumulative: number;
}

export interface ScalarSeries {
  readonly labels: Labels;
  readonly value: number;
  /** ms since epoch, when the sample carried a timestamp. */
  readonly timestampMs: number | null;
  /** From a `<name>_created` sample (counters), seconds since epoch. */
  readonly created: number | null;
}

export interface HistogramSeries {
  /** The series' labels without `le`. */
  readonly labels: Labels;
  /** Sorted by `le`, ascending. Empty when only `_sum`/`_count` were exposed. */
  readonly buckets: readonly HistogramBucket[];
  /** `_sum`, or null when that sample was absent. */
  readonly sum: number | null;
  /** `_count`, else the +Inf bucket, else null. */
  readonly count: number | null;
  /** `_created`, seconds since epoch, or null. */
  readonly created: number | null;
  /**
   * The scrape was cut short where it may have lost lines of this series (scrapeCut.ts): its
   * buckets, sum and count are then not read (empty, null, null), unknown rather than a figure.
   */
  readonly cut?: boolean;
}

export interface SummaryQuantile {
  readonly quantile: number;
  readonly value: number;
}

export interface SummarySeries {
  readonly labels: Labels;
  readonly quantiles: readonly SummaryQuantile[];
  readonly sum: number | null;
  readonly count: number | null;
  readonly created: number | null;
  /** As HistogramSeries.cut: its quantiles, sum and count are not read. */
  readonly cut?: boolean;
}

interface FamilyBase {
  /** The name as exposed (from `# TYPE`, or the sample name for an undeclared family). */
  readonly name: string;
  /** The name with the vLLM-Omni prefix normalised (`vllm:omni_x` -> `vllm_omni:x`). */
  readonly canonicalName: string;
  readonly help: string | null;
}

export interface ScalarFamily extends FamilyBase {
  readonly type: 'counter' | 'gauge' | 'untyped';
  readonly series: readonly ScalarSeries[];
}

export interface HistogramFamily extends FamilyBase {
  readonly type: 'histogram';
  readonly series: readonly HistogramSeries[];
}

export interface SummaryFamily extends FamilyBase {
  readonly type: 'summary';
  readonly series: readonly SummarySeries[];
}

export type MetricFamily = ScalarFamily | HistogramFamily | SummaryFamily;

export interface ParsedExposition {
  /** In order of first appearance. Unknown families are kept. */
  readonly families: readonly MetricFamily[];
  readonly problems: readonly ParseProblem[];
  /** Sample lines that were used (problem lines excluded). */
  readonly sampleCount: number;
  /**
   * The number of the last line when the text ends inside it: a non-blank line with no line
   * feed after it, where the text format ends every line with one. The text was cut there (a
   * file or body cut short), so that line may be cut too, and is not read. null: the text ends with a line feed.
   */
  readonly unterminatedLine: number | null;
  /**
   * The family (by `name`) whose values the text ends among, told by the sample names read last:
   * were the text cut there, its next series could be lost. null: the text ends past every
   * family's values (in a `_created` gauge section, at a comment after a family's samples, at a
   * name not seen before).
   */
  readonly valuesAtEnd: string | null;
}
