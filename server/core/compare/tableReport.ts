// The comparison as a terminal table: one row per metric and quantile, a `*` where the
// difference is beyond noise, metrics measured in one run only said in words.
import { tailTableLines } from './tailText';
import {
  alignedTable,
  CHANGE_LABEL,
  countsText,
  findingText,
  formatMs,
  histogramCounts,
  histogramDiffText,
  histogramNoDiffText,
  histogramSideCell,
  histogramQuantileText,
  metricLabel,
  oneSidedText,
  debugLinesPerRun,
  cutOffPerRun,
  runText,
  scopeCell,
  scopeLabel,
  sessionRolesText,
  signedMs,
  signedPct,
  tooFewToTestText,
  histogramMarks,
} from './format';
import type { RuleResult } from './ruleCheck';
import { changeKind, changeText, verdictShort } from './changeWords';
import type { ComparisonReport, HistogramComparison, MetricComparison, QuantileComparison } from './types';
import { maxOf, pushAll } from '../arrays';
import { countOf } from '../numberText';
import { PERCENTILES } from '../reportedPercentiles';

function ciText(q: QuantileComparison): string {
  if (q.ci === null) return 'not testable';
  return `[${signedMs(q.ci.low)}, ${signedMs(q.ci.high)}]`;
}

/** The flag column: `* shorter`, `* longer`, `* shifted` (relative figures), or why a difference is not flagged. */
function flagText(m: MetricComparison, q: QuantileComparison): string {
  const kind = changeKind(m.metric, q);
  return kind === 'none' ? verdictShort(q) : `* ${kind}`;
}

function metricRows(m: MetricComparison, roles: Readonly<Record<string, string>>): string[][] {
  const scope = scopeCell(m.scope, roles);
  if (m.status !== 'compared')
    return [[scope, metricLabel(m), countsText(m), '-', '', '', '', '', 'one run only (below)', '', '']];
  return m.quantiles.map((q, i) => [
    i === 0 ? scope : '',
    i === 0 ? metricLabel(m) : '',
    i === 0 ? countsText(m) : '',
    q.quantile,
    formatMs(q.baseline),
    formatMs(q.candidate),
    signedMs(q.diffMs),
    signedPct(q.diffPct),
    ciText(q),
    flagText(m, q),
    i === 0 && m.rankTest !== null
      ? `${m.rankTest.pValue < 0.0001 ? '<0.0001' : m.rankTest.pValue.toFixed(4)}${m.rankTest.beyondNoise ? ' *' : ''}`
      : '',
  ]);
}

function histogramRows(h: HistogramComparison): string[][] {
  const labels = Object.entries(h.labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const lie = histogramMarks(h, ' ~', ' !');
  const unit = (h.unit === 'ms' ? '' : ' (unit as exposed)') + lie;
  const noDiff = histogramNoDiffText(h);
  if (noDiff !== null)
    return PERCENTILES.map((q, i) => [
      i === 0 ? (h.exposedName ?? h.family) + unit : '',
      i === 0 ? labels : '',
      i === 0 ? histogramCounts(h) : '',
      q,
      histogramSideCell(h.baseline, q),
      histogramSideCell(h.candidate, q),
      '',
      '',
      i === 0 ? noDiff : '',
    ]);
  return h.quantiles.map((q, i) => [
    i === 0 ? (h.exposedName ?? h.family) + unit : '',
    i === 0 ? labels : '',
    i === 0 ? histogramCounts(h) : '',
    q.quantile,
    histogramQuantileText(h.baseline, q.quantile, q.baseline),
    histogramQuantileText(h.candidate, q.quantile, q.candidate),
    histogramDiffText(h, q).ms,
    histogramDiffText(h, q).pct,
  ]);
}

const OUTCOME_LABEL = {
  crossed: 'CROSSED',
  unmeasured: 'NOT MEASURED',
  withinNoise: 'within noise',
  passed: 'ok',
  notEvaluated: 'not evaluated',
} as const;

export function ruleLines(results: readonly RuleResult[]): string[] {
  return results.map(
    (r) => `  ${(r.failed ? 'FAIL ' : '     ') + OUTCOME_LABEL[r.outcome].padEnd(13)} ${r.rule}: ${r.detail}`,
  );
}

export function compareTable(report: ComparisonReport, rules: readonly RuleResult[] = []): string[] {
  const pct = Math.round(report.method.confidence * 1000) / 10;
  const out = [
    'Stage Lens compare',
    `  baseline   ${runText(report.baseline)}`,
    `  candidate  ${runText(report.candidate)}`,
    '',
  ];
  const rolesText = sessionRolesText(report);
  if (rolesText !== null) out.push(rolesText, '');
  if (report.stagesDiffer != null) out.push(`Warning: ${report.stagesDiffer}`, '');
  if (report.metrics.length > 0) {
    out.push(
      `Per stage and phase, ms over measured values only (n = measured values, baseline/candidate). Δ = candidate - baseline, Δ % = Δ / |baseline| (its sign is Δ's where the baseline is negative, +1st output); * = a change: beyond noise, above ` +
        `the larger of ${report.method.minChangeMs} ms and ${report.method.minChangePct}% of the baseline, with n ≥ ${report.method.quantileMinSamples.p50} (p50, p90) / ${report.method.quantileMinSamples.p99} (p99) per run.`,
    );
    const tooFew = tooFewToTestText(report);
    if (tooFew !== null) out.push(tooFew);
    const shown = report.metrics.filter((m) => m.status !== 'neither');
    const rows = shown.flatMap((m) => metricRows(m, report.stageRoles ?? {}));
    pushAll(
      out,
      alignedTable(
        [
          'stage',
          'metric',
          'n',
          'q',
          'baseline',
          'candidate',
          'Δ ms',
          'Δ %',
          `${pct}% CI of Δ ms`,
          'change',
          'rank test p',
        ],
        rows,
        2,
      ),
    );
    const changes = shown.flatMap((m) =>
      m.quantiles
        .filter((q) => q.verdict === 'changed')
        .map((q) => `  ${scopeLabel(m.scope, report.stageRoles)} ${metricLabel(m)}: ${changeText(report, m, q)}`),
    );
    if (changes.length > 0) pushAll(out, ['', 'What changed (flagged *):', ...changes]);
    const oneSided = shown.filter((m) => m.status !== 'compared');
    if (oneSided.length > 0) {
      out.push('', 'Measured in one run only (not a difference):');
      for (const m of oneSided)
        out.push(
          `  ${scopeLabel(m.scope, report.stageRoles)} ${metricLabel(m)}: ${oneSidedText(m, cutOffPerRun(report), debugLinesPerRun(report))}`,
        );
    }
    const neither = report.metrics.length - shown.length;
    if (neither > 0) out.push(`(${countOf(neither, 'metric')} measured in neither run not shown; see --format json)`);
    out.push('');
  }
  if (report.histograms.length > 0) {
    out.push(
      '/metrics histograms, ms for *_seconds/*_s families (n = observations). Significance not testable: no per-request values. ! = known to be wrong in a run, ~ = cut short in a run (unknown; see Notes); ≤ = in the lowest bucket (only its bound is known), ≥ = beyond the highest bucket; no Δ between bounds; a row with no observation in either run is left out (one cut short is kept: unknown, not empty).',
    );
    const rows = report.histograms.flatMap(histogramRows);
    // The last column is words (why a row has no Δ): left-aligned, as wide as its longest.
    const noteWidth = maxOf(
      0,
      rows.map((r) => (r[8] ?? '').length),
    );
    pushAll(
      out,
      alignedTable(
        ['family', 'labels', 'n', 'q', 'baseline', 'candidate', 'Δ', 'Δ %', 'no Δ because'.padEnd(noteWidth)],
        rows.map((r) => [...r.slice(0, 8), (r[8] ?? '').padEnd(noteWidth)]),
        2,
      ),
    );
    out.push('');
  }
  if (report.tail !== undefined && report.tail !== null) pushAll(out, [...tailTableLines(report.tail), '']);
  out.push('Findings');
  if (report.findings.length === 0) out.push('  none in either run');
  for (const f of report.findings) out.push(`  ${CHANGE_LABEL[f.change].padEnd(13)} [${f.severity}] ${findingText(f)}`);
  out.push('');
  // The different-stages warning heads the report: not again among the notes.
  const notes = report.notes.filter((n) => n !== report.stagesDiffer);
  if (notes.length > 0) pushAll(out, ['Notes', ...notes.map((n) => `  - ${n}`), '']);
  if (report.metrics.length > 0) {
    out.push(
      'Significance',
      `  ${report.method.bootstrap}.`,
      `  Beyond noise: ${report.method.beyondNoise}; not testable below ${report.method.minSamples} values per run.`,
      `  Flagged (*): ${report.method.flagged}.`,
      `  Rank test: ${report.method.rankTest}.`,
    );
  } else if (report.histograms.length > 0) out.push('Significance', `  ${report.method.histograms}.`);
  if (rules.length > 0) pushAll(out, ['', 'Rules (--fail-if)', ...ruleLines(rules)]);
  return out;
}
