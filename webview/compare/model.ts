// What the Compare Sessions panel shows, computed from the report without the DOM (so it is
// unit-tested in Node): per stage the metric rows, per quantile a cell with the two values,
// the difference, its significance and the geometry of its confidence-interval bar.
import type {
  ComparisonReport,
  FindingDiff,
  HistogramComparison,
  HistogramSide,
  MetricComparison,
  MetricId,
  Percentile,
  QuantileComparison,
  SideStats,
  UnknownReason,
} from '../../server/protocol';
import {
  changeKind,
  changeText,
  countOf,
  cutOffPerRun,
  debugLinesPerRun,
  findingText,
  histogramSeriesText,
  sentenceCase,
  sideMissing,
  stageLabel,
  UNKNOWN_LABEL,
  unknownLabel,
  verdictShort,
} from '../../server/shared';
import { formatCompact, formatExact } from '../shared/format';
import { PREFILL_DECODE_LABEL } from '../shared/labels';

/**
 * How a cell is marked: `up` / `down` a flagged change of a duration (longer / shorter),
 * `shift` a flagged change of a figure relative to the upstream stage (+1st output: neither
 * faster nor slower by itself, so no red or green), `none` not flagged (within noise, below
 * the practical threshold, too few values for the quantile), `untestable` no CI.
 */
export type Significance = 'up' | 'down' | 'shift' | 'none' | 'untestable';

export interface CiBar {
  /** Positions in percent of the track, which spans [−R, +R] around 0. */
  readonly zero: number;
  readonly low: number;
  readonly high: number;
  readonly point: number;
}

export interface QuantileCell {
  readonly quantile: string;
  readonly values: string;
  readonly change: string;
  readonly significance: Significance;
  /** What changed in words when flagged (`p90 12.3 ms shorter (-8.1%)`), else why it is not flagged (`≤ 0.1 ms`, `p99 needs n ≥ 100`). */
  readonly note: string;
  readonly bar: CiBar | null;
  /** Hover text: exact numbers and the interval. */
  readonly title: string;
}

/** A metric measured in one run only: what is known, in words, and the state to show it in. */
export interface OneSided {
  readonly text: string;
  readonly state: 'notRecorded' | 'notMeasured' | 'hidden';
}

export interface MetricRow {
  /** `<scope>.<metric>`, stable for tests. */
  readonly key: string;
  readonly metric: string;
  readonly source: string;
  readonly counts: string;
  readonly cells: readonly QuantileCell[] | null;
  readonly oneSided: OneSided | null;
  readonly rank: string;
  readonly rankBeyond: boolean;
}

export interface StageGroup {
  readonly scope: string;
  readonly title: string;
  readonly rows: readonly MetricRow[];
}

const METRIC_LABEL: Readonly<Record<string, { label: string; source: string }>> = {
  queued: { label: 'queued', source: 'vllm_queued_ms' },
  inputWait: { label: 'input wait', source: 'vllm_input_wait_ms' },
  readyQueued: { label: 'ready queued', source: 'vllm_ready_queued_ms' },
  prefill: { label: 'prefill', source: 'vllm_prefill_ms' },
  decode: { label: 'decode', source: 'vllm_decode_ms' },
  prefillDecode: {
    label: PREFILL_DECODE_LABEL,
    source:
      'vllm_prefill_ms of a stage that emits one output when it stops (Model Runner V2 + async chunk): prefill and decode in one number',
  },
  ttft: { label: 'TTFT', source: 'vllm_ttft_ms (stage-local)' },
  genTime: { label: 'gen time', source: 'stage_gen_time_ms' },
  firstOutput: { label: '1st output', source: 'serving_time_to_first_output_ms' },
  addedFirstOutput: { label: '+1st output', source: 'time to first output added by this stage, within each request' },
  e2e: { label: 'end to end', source: 'e2e_total_ms' },
  edgeTx: { label: 'send (tx)', source: 'tx_time_ms (TransferEdgeStats)' },
  edgeInFlight: { label: 'in flight', source: 'in_flight_time_ms (TransferEdgeStats)' },
  edgeRxDecode: { label: 'receive+decode', source: 'rx_decode_time_ms (TransferEdgeStats)' },
  edgeOmniTimingTx: {
    label: 'send ([OmniTiming])',
    source: '[OmniTiming] transfers=[from->to=N ms]; 0.00 with no payload transfer recorded is not recorded, never 0',
  },
};

export function ms(v: number): string {
  return formatCompact(v);
}

export function signed(v: number, unit: string): string {
  const text =
    unit === '%'
      ? `${Math.abs(v) >= 100 ? Math.abs(v).toFixed(0) : Math.abs(v).toFixed(1)}%`
      : `${formatCompact(Math.abs(v))} ${unit}`;
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${text}`;
}

export function significanceOf(q: QuantileComparison, metric: MetricId = 'queued'): Significance {
  if (q.verdict === 'notTestable') return 'untestable';
  const kind = changeKind(metric, q);
  return kind === 'longer' ? 'up' : kind === 'shorter' ? 'down' : kind === 'shifted' ? 'shift' : 'none';
}

/** The CI bar of a cell: track [−R, R] with R the largest magnitude among the CI ends and the point. */
export function ciBar(q: QuantileComparison): CiBar | null {
  if (q.ci === null) return null;
  const r = Math.max(Math.abs(q.ci.low), Math.abs(q.ci.high), Math.abs(q.diffMs)) * 1.1;
  if (!(r > 0)) return { zero: 50, low: 50, high: 50, point: 50 };
  const pos = (v: number): number => 50 + (50 * v) / r;
  return { zero: 50, low: pos(q.ci.low), high: pos(q.ci.high), point: pos(q.diffMs) };
}

function cell(report: ComparisonReport, m: MetricComparison, q: QuantileComparison): QuantileCell {
  const sig = significanceOf(q, m.metric);
  const pct = Math.round(report.method.confidence * 1000) / 10;
  const ci =
    q.ci === null
      ? `significance not testable: ${q.notTestable ?? ''}`
      : `${pct}% CI of the difference: [${formatExact(q.ci.low)}, ${formatExact(q.ci.high)}] ms, ${q.beyondNoise === true ? 'excludes 0: beyond noise' : 'includes 0: within noise'}`;
  const flagged = sig === 'up' || sig === 'down' || sig === 'shift';
  return {
    quantile: q.quantile,
    values: `${ms(q.baseline)} → ${ms(q.candidate)}`,
    change: `${signed(q.diffMs, 'ms')} (${q.diffPct === null ? 'n/a' : signed(q.diffPct, '%')})`,
    significance: sig,
    note: flagged ? changeText(report, m, q) : verdictShort(q),
    bar: ciBar(q),
    title: `${q.quantile}: baseline ${formatExact(q.baseline)} ms, candidate ${formatExact(q.candidate)} ms, difference ${formatExact(q.diffMs)} ms.\n${ci}\n${changeText(report, m, q)}.\nFlagged only when ${report.method.flagged}.`,
  };
}

/**
 * `cutOff`: the run's requests whose stats were cut off, so a scope with no request may be in the
 * part not read; `debugLines`: the run's log has DEBUG lines (unknownLabel).
 */
function missingText(side: SideStats, cutOff: number, debugLines: boolean): string {
  if (side.requests === 0) return sideMissing(side, cutOff, debugLines);
  const parts = (Object.keys(UNKNOWN_LABEL) as UnknownReason[])
    .filter((k) => (side.unknown[k] ?? 0) > 0)
    .map((k) => `${side.unknown[k]} ${unknownLabel(k, debugLines)}`);
  return `0 of ${side.requests} measured${parts.length === 0 ? '' : ` (${parts.join(', ')})`}`;
}

function oneSided(
  m: MetricComparison,
  cutOff: { readonly baseline: number; readonly candidate: number },
  debugLines: { readonly baseline: boolean; readonly candidate: boolean },
): OneSided {
  const missing = m.status === 'baselineOnly' ? m.candidate : m.baseline;
  const missingCut = m.status === 'baselineOnly' ? cutOff.candidate : cutOff.baseline;
  // An INFO-level log printed no table for it: not measured, not the hidden-row style (zero or not measured).
  const state =
    (missing.unknown.notRecorded ?? 0) > 0 || (missing.requests === 0 && missingCut > 0)
      ? 'notRecorded'
      : (missing.unknown.notMeasured ?? 0) > 0 || (missing.unknown.noStageTable ?? 0) > 0
        ? 'notMeasured'
        : 'hidden';
  const text =
    m.status === 'baselineOnly'
      ? `measured in the baseline only; candidate: ${missingText(m.candidate, cutOff.candidate, debugLines.candidate)}`
      : m.status === 'candidateOnly'
        ? `measured in the candidate only; baseline: ${missingText(m.baseline, cutOff.baseline, debugLines.baseline)}`
        : `measured in neither run`;
  return { text, state };
}

function row(report: ComparisonReport, m: MetricComparison): MetricRow {
  const info = METRIC_LABEL[m.metric] ?? { label: m.metric, source: m.metric };
  const compared = m.status === 'compared';
  const rank =
    m.rankTest === null
      ? compared
        ? 'not testable'
        : ''
      : m.rankTest.pValue < 0.0001
        ? '< 0.0001'
        : m.rankTest.pValue.toFixed(4);
  return {
    key: `${m.scope}.${m.metric}`,
    metric: info.label,
    source: info.source,
    counts: `${m.baseline.measured} / ${m.candidate.measured}`,
    cells: compared ? m.quantiles.map((q) => cell(report, m, q)) : null,
    oneSided: compared ? null : oneSided(m, cutOffPerRun(report), debugLinesPerRun(report)),
    rank,
    rankBeyond: m.rankTest?.beyondNoise === true,
  };
}

/** A cell flagged as a change. */
export function isFlagged(c: QuantileCell): boolean {
  return c.significance === 'up' || c.significance === 'down' || c.significance === 'shift';
}

/** What the stage table draws, so the legend explains only that: the marks its cells carry, and whether any cell has a CI bar. */
export interface LegendKeys {
  readonly marks: ReadonlySet<Significance>;
  readonly bars: boolean;
}

export function legendKeys(groups: readonly StageGroup[]): LegendKeys {
  const marks = new Set<Significance>();
  let bars = false;
  for (const g of groups)
    for (const r of g.rows)
      for (const c of r.cells ?? []) {
        marks.add(c.significance);
        if (c.bar !== null) bars = true;
      }
  return { marks, bars };
}

/** Stage groups in pipeline order; `onlyBeyondNoise` keeps the rows with a flagged change (and one-sided rows, which are news too). */
export function stageGroups(report: ComparisonReport, onlyBeyondNoise: boolean): StageGroup[] {
  const groups = new Map<string, MetricRow[]>();
  for (const m of report.metrics) {
    if (m.status === 'neither') continue;
    const r = row(report, m);
    if (onlyBeyondNoise && r.cells !== null && !r.cells.some(isFlagged)) continue;
    let list = groups.get(m.scope);
    if (list === undefined) groups.set(m.scope, (list = []));
    list.push(r);
  }
  return [...groups].map(([scope, rows]) => ({
    scope,
    title:
      scope === 'request'
        ? 'Request (end to end)'
        : scope.includes('->')
          ? `Transfer ${scope.replace('->', ' → ')}`
          : stageTitle(report, scope),
    rows,
  }));
}

export interface Headline {
  readonly up: number;
  readonly down: number;
  /** Flagged changes of relative figures (+1st output): neither up nor down. */
  readonly shifted: number;
  readonly tested: number;
  readonly appeared: number;
  readonly disappeared: number;
  readonly text: string;
}

export function headline(report: ComparisonReport): Headline {
  let up = 0;
  let down = 0;
  let shifted = 0;
  let tested = 0;
  for (const m of report.metrics) {
    for (const q of m.quantiles) {
      const s = significanceOf(q, m.metric);
      if (s !== 'untestable') tested++;
      if (s === 'up') up++;
      else if (s === 'down') down++;
      else if (s === 'shift') shifted++;
    }
  }
  const appeared = report.findings.filter((f) => f.change === 'appeared').length;
  const disappeared = report.findings.filter((f) => f.change === 'disappeared').length;
  const changes = `${up + down + shifted} of ${tested} quantile differences changed (▲ ${up} longer, ▼ ${down} shorter${shifted > 0 ? `, ◆ ${shifted} shifted relative to the upstream stage` : ''})`;
  const parts = [tested === 0 ? 'no quantile difference could be tested' : changes];
  if (appeared > 0) parts.push(`${appeared} finding${appeared === 1 ? '' : 's'} appeared`);
  if (disappeared > 0) parts.push(`${disappeared} finding${disappeared === 1 ? '' : 's'} disappeared`);
  return { up, down, shifted, tested, appeared, disappeared, text: parts.join(' · ') };
}

/** The finding's line as the CLI words it (rates where the runs differ in size, a scrape's finding without counts). */
export function findingLine(f: FindingDiff): string {
  return findingText(f);
}

/** What a run holds, each fact one phrase ("6 requests", "12 histogram series"): the header keeps each on one line. */
export function runFacts(side: ComparisonReport['baseline']): string[] {
  const parts: string[] = [];
  if (side.requestCount !== null)
    parts.push(
      `${countOf(side.requestCount, 'request')}${side.coldExcluded && (side.coldRequests ?? 0) > 0 ? ` (${side.coldRequests} cold left out)` : ''}`,
    );
  const series = histogramSeriesText(side);
  if (series !== null) parts.push(series);
  return parts;
}

/**
 * A histogram row's observations, "150 / 75": 0 where a run has no such series, ? where its count
 * is unknown (not exposed, cut short, or absent from a scrape cut short before it).
 */
export function histogramCountsText(r: HistogramComparison): string {
  const n = (run: 'baseline' | 'candidate'): string => {
    const side = r[run];
    if (side === null) return r.unreadIn === run ? '?' : '0';
    return side.count === null ? '?' : String(side.count);
  };
  return `${n('baseline')} / ${n('candidate')}`;
}

/** A histogram quantile as it may be read: `≤300` (lowest bucket: its bound only), `≥80,000` (+Inf), else the number. */
export function histogramSideText(
  side: HistogramSide | null,
  quantile: Percentile,
  value: number,
): { text: string; bound: boolean } {
  const fmt = (v: number): string => v.toLocaleString('en-US', { maximumFractionDigits: 3 });
  const bound =
    side?.bounds[quantile] ??
    (side?.openEnded.includes(quantile) === true ? { kind: 'atLeast' as const, le: value } : undefined);
  if (bound === undefined) return { text: fmt(value), bound: false };
  return {
    text: `${bound.kind === 'atMost' ? '≤' : '≥'}${fmt(bound.kind === 'atMost' ? bound.le : value)}`,
    bound: true,
  };
}

/**
 * "Stage 1 · code2wav"; where the runs give the stage different roles (two pipelines), each
 * run's: "Stage 1 · code2wav (baseline) / talker (candidate)".
 */
function stageTitle(report: ComparisonReport, scope: string): string {
  const shared = report.stageRoles ?? {};
  const b = report.runStageRoles?.baseline[scope];
  const c = report.runStageRoles?.candidate[scope];
  if (shared[scope] !== undefined || (b === undefined && c === undefined) || b === c)
    return sentenceCase(stageLabel(scope, shared));
  return `${sentenceCase(stageLabel(scope, {}))} · ${b ?? 'not named'} (baseline) / ${c ?? 'not named'} (candidate)`;
}
