// Number and label formatting shared by the terminal table and the Markdown report.
import { formatMs } from '../textTable';
import { edgeLabel } from '../edgeLabel';
import { METRIC_INFO } from './metrics';
import type {
  ComparisonReport,
  FindingChange,
  FindingDiff,
  HistogramComparison,
  HistogramSide,
  MetricComparison,
  QuantileComparison,
  RunData,
  RunSummary,
  SideStats,
  UnknownCounts,
  UnknownReason,
} from './types';
import type { Percentile } from '../reportedPercentiles';
import { boundSign } from '../metricsText/quantileBounds';
import { REQUEST_SCOPE } from './types';
import { caveatBesidesCut } from '../metricsText/scrapeCut';
import { maxOf } from '../arrays';
import { countOf, groupedNumber } from '../numberText';
import { partialSourceName, qualifiedSourceName } from '../gzipInput';
import { runQualifiers } from './runName';
import { sessionRolesNote, stageCell, stageLabel } from '../stageRoles';
import { nonFiniteSampleText } from '../metricsText/sampleLine';

export { formatMs };

export const UNKNOWN_LABEL: Readonly<Record<UnknownReason, string>> = {
  notRecorded: 'not recorded',
  notMeasured: 'not measured',
  hidden: 'hidden',
  noOutput: 'no output',
  notComputable: 'not computable',
  oneOutput: 'in prefill+decode (one output)',
  noStageTable: 'no stage table ([OmniTiming] only, INFO level)',
  noTransferTable: 'ran both stages, no transfer printed (left out when all 0)',
};

export function signedMs(v: number): string {
  return `${v > 0 ? '+' : v < 0 ? '-' : ''}${formatMs(Math.abs(v))}`;
}

export function signedPct(v: number | null): string {
  if (v === null) return 'n/a';
  const abs = Math.abs(v);
  const text = abs >= 100 ? abs.toFixed(0) : abs.toFixed(1);
  return `${v > 0 ? '+' : v < 0 ? '-' : ''}${text}%`;
}

/**
 * `reason`'s words for a run; `debugLines`: its log has DEBUG lines (RunSummary.debugLines), so a
 * run of [OmniTiming] lines only did not run at INFO (its stats logger was set above DEBUG, or the
 * tables were cut out: tablesMissing.ts) and is not called INFO level.
 */
export function unknownLabel(reason: UnknownReason, debugLines = false): string {
  return reason === 'noStageTable' && debugLines ? 'no stage table ([OmniTiming] only)' : UNKNOWN_LABEL[reason];
}

/** `debugLines` as for unknownLabel. */
export function unknownText(unknown: UnknownCounts, debugLines = false): string {
  return (Object.keys(UNKNOWN_LABEL) as UnknownReason[])
    .filter((k) => (unknown[k] ?? 0) > 0)
    .map((k) => `${unknown[k]} ${unknownLabel(k, debugLines)}`)
    .join(', ');
}

/** Whether each run's log has DEBUG lines (RunSummary.debugLines): the words of its unknown values (unknownLabel). */
export function debugLinesPerRun(report: ComparisonReport): {
  readonly baseline: boolean;
  readonly candidate: boolean;
} {
  return { baseline: report.baseline.debugLines === true, candidate: report.candidate.debugLines === true };
}

/** "request", "transfer 0 → 1", "stage 1 · code2wav" ("stage 1" where the roles are not known). */
export function scopeLabel(scope: string, roles: Readonly<Record<string, string>> = {}): string {
  return scope === REQUEST_SCOPE
    ? 'request'
    : scope.includes('->')
      ? `transfer ${edgeLabel(scope)}`
      : stageLabel(scope, roles);
}

/** A table's scope column: "request", "0 → 1", "1 · code2wav" ("1" where the role is not known). */
export function scopeCell(scope: string, roles: Readonly<Record<string, string>> = {}): string {
  if (scope === REQUEST_SCOPE) return 'request';
  return scope.includes('->') ? edgeLabel(scope) : stageCell(scope, roles);
}

export function metricLabel(m: MetricComparison): string {
  return METRIC_INFO[m.metric].label;
}

/** "58/60": measured values of each run (the quantiles' n). */
export function countsText(m: MetricComparison): string {
  return `${m.baseline.measured}/${m.candidate.measured}`;
}

/**
 * When no compared metric has enough values in both runs to be tested, one sentence saying so
 * above the table (each row says "not testable", which alone reads like a verdict); null otherwise.
 */
export function tooFewToTestText(report: Pick<ComparisonReport, 'metrics' | 'method'>): string | null {
  const compared = report.metrics.filter((m) => m.status === 'compared');
  if (compared.length === 0 || compared.some((m) => m.quantiles.some((q) => q.ci !== null))) return null;
  const most = (side: 'baseline' | 'candidate'): number =>
    maxOf(
      0,
      compared.map((m) => m[side].measured),
    );
  return (
    `Too few requests to test any difference: each run needs at least ${report.method.minSamples} measured values ` +
    `of a metric, and the most here are ${most('baseline')} (baseline) and ${most('candidate')} (candidate). ` +
    'The differences below describe these requests; none is evidence of a change.'
  );
}

/**
 * Why one side has no number: "0 of 60 measured: 60 not recorded". A scope with no request
 * did not run, unless `cutOff` of the run's requests had their stats cut off: the scope may be
 * in the part not read. `debugLines`: the run's log has DEBUG lines (unknownLabel).
 */
export function sideMissing(side: SideStats, cutOff = 0, debugLines = false): string {
  const why = unknownText(side.unknown, debugLines);
  if (side.requests === 0)
    return cutOff > 0
      ? `not read: ${countOf(cutOff, 'request')} had ${cutOff === 1 ? 'its' : 'their'} stats cut off (truncated-record), so whether it ran is unknown`
      : 'did not run';
  return `none of ${side.requests} measured${why === '' ? '' : `: ${why}`}`;
}

/** Requests per run whose stats were cut off (the truncated-record finding in the findings diff). */
export function cutOffPerRun(report: ComparisonReport): { readonly baseline: number; readonly candidate: number } {
  const f = report.findings.find((x) => x.code === 'truncated-record');
  return { baseline: f?.baselineRequests ?? 0, candidate: f?.candidateRequests ?? 0 };
}

/** One sentence for a metric measured in one run only; `cutOff`: cutOffPerRun of the report; `debugLines`: debugLinesPerRun. */
export function oneSidedText(
  m: MetricComparison,
  cutOff: { readonly baseline: number; readonly candidate: number } = { baseline: 0, candidate: 0 },
  debugLines: { readonly baseline: boolean; readonly candidate: boolean } = { baseline: false, candidate: false },
): string {
  const b = sideMissing(m.baseline, cutOff.baseline, debugLines.baseline);
  const c = sideMissing(m.candidate, cutOff.candidate, debugLines.candidate);
  if (m.status === 'baselineOnly') return `measured in the baseline only (candidate: ${c})`;
  if (m.status === 'candidateOnly') return `measured in the candidate only (baseline: ${b})`;
  return `measured in neither run (baseline: ${b}; candidate: ${c})`;
}

/**
 * A run's name in a report and a message: its source, and the boot and server read when they were
 * selected ("server.log (boot 2)", "merged.log (server omni-vllm-2)").
 */
export function runNameText(source: string, boot: number | undefined, server?: string): string {
  const qualifiers = runQualifiers(boot, server);
  return qualifiers === null ? source : qualifiedSourceName(source, qualifiers);
}

/** runNameText of a run as read. */
export function runDataName(run: RunData): string {
  return runNameText(run.source, run.bootCounts?.boot, run.serverCounts?.server);
}

/**
 * A report's header line of a run: "server.log (boot 2) · log · 6 requests" (a gzip one
 * "server.log.1.gz (gzip, boot 2) · log · …"; one whose gzip data broke off says partial as
 * analyze's header does: "server.log.1.gz (gzip), partial: gzip data cut after 99 KB · log · …").
 */
export function runText(run: RunSummary): string {
  const parts: string[] = [
    partialSourceName(runNameText(run.source, run.boot, run.server), run.partialLogBytes),
    run.kind,
  ];
  if (run.requestCount !== null) {
    const cold =
      run.coldRequests !== null && run.coldRequests > 0
        ? `, ${run.coldRequests} cold${run.coldExcluded ? ' left out' : ''}`
        : '';
    parts.push(`${countOf(run.requestCount, 'request')}${cold}`);
  }
  const series = histogramSeriesText(run);
  if (series !== null) parts.push(series);
  return parts.join(' · ');
}

/**
 * Where the stages' roles came from, said as explain says it, when they are the roles a saved
 * session recorded (the run's whose roles name the stages: the baseline's where it has some); else null.
 */
export function sessionRolesText(report: ComparisonReport): string | null {
  if (report.stageRolesFrom !== 'session') return null;
  const side = Object.keys(report.runStageRoles?.baseline ?? {}).length > 0 ? 'baseline' : 'candidate';
  return sessionRolesNote(report.stageRoles ?? {}, `the ${side} session`);
}

export function findingText(f: FindingDiff): string {
  const where = f.stageId === null ? '' : ` (stage ${f.stageId})`;
  if (f.fromScrape === true) {
    const family = f.family === undefined ? '' : ` ${f.family}`;
    const runs =
      f.change === 'appeared'
        ? "in the candidate's scrape, not in the baseline's"
        : f.change === 'disappeared'
          ? "in the baseline's scrape, not in the candidate's"
          : f.change === 'persisted'
            ? "in both runs' scrapes"
            : `in the ${f.change === 'notCheckableInCandidate' ? "baseline's" : "candidate's"} scrape; ${notCheckableText(f)}`;
    const at = [f.stageId === null ? '' : `stage ${f.stageId}`, `/metrics${family}`].filter((x) => x !== '');
    return `${f.code} (${at.join(', ')}): ${runs}`;
  }
  if (f.change === 'notCheckableInCandidate')
    return `${f.code}${where}: ${countOf(f.baselineRequests, 'request')} in the baseline; ${notCheckableText(f)}`;
  if (f.change === 'notCheckableInBaseline')
    return `${f.code}${where}: ${countOf(f.candidateRequests, 'request')} in the candidate; ${notCheckableText(f)}`;
  const bOf = f.baselineOf ?? null;
  const cOf = f.candidateOf ?? null;
  if (bOf !== null && cOf !== null && bOf !== cOf) {
    // Runs of different sizes: a count alone reads as a change where the rate did not move (14 → 8 of half as many).
    const rate = (n: number, of: number): string =>
      `${n} of ${countOf(of, 'request')} (${of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)}%`})`;
    return `${f.code}${where}: ${rate(f.baselineRequests, bOf)} → ${rate(f.candidateRequests, cOf)}`;
  }
  const counts =
    f.change === 'appeared'
      ? `${countOf(f.candidateRequests, 'request')} in the candidate, none in the baseline`
      : f.change === 'disappeared'
        ? `${countOf(f.baselineRequests, 'request')} in the baseline, none in the candidate`
        : `${groupedNumber(f.baselineRequests, 0, 0)} → ${countOf(f.candidateRequests, 'request')}`;
  return `${f.code}${where}: ${counts}`;
}

/** "not checkable in the candidate: it printed no stats tables (...)". */
function notCheckableText(f: FindingDiff): string {
  const run = f.change === 'notCheckableInBaseline' ? 'baseline' : 'candidate';
  return `not checkable in the ${run}: ${f.notCheckable ?? 'that run could not show it'}`;
}

export const CHANGE_LABEL: Readonly<Record<FindingChange, string>> = {
  appeared: 'appeared',
  disappeared: 'disappeared',
  persisted: 'still present',
  notCheckableInCandidate: 'not checkable',
  notCheckableInBaseline: 'not checkable',
};

/** "120/118" observations of a histogram series (0 when absent from a run, ? when unknown: not exposed, or cut short). */
export function histogramCounts(h: HistogramComparison): string {
  // Absent from a scrape cut short before it: its count is unknown there, not 0.
  const n = (run: 'baseline' | 'candidate'): string => {
    const side = h[run];
    if (side === null) return h.unreadIn === run ? '?' : '0';
    return side.count === null ? '?' : (nonFiniteSampleText(side.count) ?? String(side.count));
  };
  return `${n('baseline')}/${n('candidate')}`;
}

/** A plain-text table: the first `leftColumns` columns left-aligned (labels), the rest right-aligned (numbers). */
export function alignedTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  leftColumns: number,
): string[] {
  const widths = header.map((h, i) =>
    maxOf(
      h.length,
      rows.map((r) => (r[i] ?? '').length),
    ),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** A histogram quantile as it may be read: `≤ 300` (lowest bucket: only its bound is known), `≥ 80,000` (+Inf), else the number. */
export function histogramQuantileText(side: HistogramSide | null, quantile: Percentile, value: number): string {
  const bound =
    side?.bounds[quantile] ??
    (side?.openEnded.includes(quantile) === true ? { kind: 'atLeast' as const, le: value } : undefined);
  if (bound === undefined) return formatMs(value);
  return `${boundSign(bound)} ${formatMs(bound.kind === 'atMost' ? bound.le : value)}`;
}

/** A difference of two histogram quantiles, or why there is none: a bound on either side makes it meaningless. */
export function histogramDiffText(h: HistogramComparison, q: QuantileComparison): { ms: string; pct: string } {
  const bounded = [h.baseline, h.candidate].some(
    (s) => s?.bounds[q.quantile] !== undefined || s?.openEnded.includes(q.quantile) === true,
  );
  return bounded ? { ms: 'bound', pct: '' } : { ms: signedMs(q.diffMs), pct: signedPct(q.diffPct) };
}

/** A histogram row's marks: `cut` when a run's series is cut short, `lie` when one is known to be wrong. */
export function histogramMarks(h: HistogramComparison, cut: string, lie: string): string {
  const sides = [h.baseline, h.candidate];
  const cutShort = h.unreadIn !== undefined || sides.some((s) => s?.cut === true);
  return `${cutShort ? cut : ''}${sides.some((s) => caveatBesidesCut(s?.caveat) !== null) ? lie : ''}`;
}

/**
 * Why a run's series is not usable: absent from its scrape cut short before it, cut short
 * (unknown either way), or known to be wrong; null when it is usable.
 */
function notUsableWord(h: HistogramComparison, run: 'baseline' | 'candidate'): string | null {
  if (h.unreadIn === run) return 'cut short before it';
  if (h.notUsableIn !== run && h.notUsableIn !== 'both') return null;
  return h[run]?.cut === true ? 'cut short' : 'known to be wrong';
}

/**
 * Why a histogram row has no Δ, or null when it has one: measured in one run only, or a run
 * whose series is known to be wrong (marked ! in the table, ⚠️ in Markdown), cut short, or
 * absent from a scrape cut short before it (~, ✂️).
 */
export function histogramNoDiffText(h: HistogramComparison): string | null {
  const b = notUsableWord(h, 'baseline');
  const c = notUsableWord(h, 'candidate');
  const wrong =
    b !== null && c !== null
      ? b === c
        ? `${b} in both runs`
        : `${b} in the baseline, ${c} in the candidate`
      : b !== null
        ? `${b} in the baseline`
        : c !== null
          ? `${c} in the candidate`
          : null;
  if (h.status === 'compared') return wrong === null ? null : `no Δ: ${wrong}`;
  // A run without observations whose series is cut short, or absent from a scrape cut short before
  // it, has values unknown, not absent: not "the other run only".
  const lacking = h.status === 'baselineOnly' ? 'candidate' : h.status === 'candidateOnly' ? 'baseline' : null;
  const unknownIn = lacking !== null && (h[lacking]?.cut === true || h.unreadIn === lacking);
  if (wrong !== null && (h.status === 'neither' || unknownIn)) return `no Δ: ${wrong}`;
  const only = h.status === 'baselineOnly' ? 'baseline only' : 'candidate only';
  return wrong === null ? only : `${only}; ${wrong}`;
}

/** A side's quantile as the tables show it: its value or bound, "-" where the run has none. */
export function histogramSideCell(side: HistogramSide | null, quantile: Percentile): string {
  const v = side?.[quantile] ?? null;
  return v === null || side?.count === 0 ? '-' : histogramQuantileText(side, quantile, v);
}

/**
 * A scrape's histograms as counted here and by `analyze`: "32 histogram series exposed, 21
 * latency rows (per family and stage, replicas added)"; null without a scrape.
 */
export function histogramSeriesText(
  run: Pick<RunSummary, 'histogramSeries' | 'exposedHistogramSeries'>,
): string | null {
  if (run.histogramSeries === null) return null;
  const rows = `${countOf(run.histogramSeries, 'latency row')} (per family and stage, replicas added)`;
  const exposed = run.exposedHistogramSeries ?? null;
  return exposed === null ? rows : `${countOf(exposed, 'histogram series', 'histogram series')} exposed, ${rows}`;
}
