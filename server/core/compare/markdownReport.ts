// The comparison as GitHub-flavoured Markdown for a pull-request comment: rules and what
// moved beyond noise first, findings that appeared or disappeared, then every metric in a
// collapsed section. Strings from logs (paths, messages) are escaped: a comment must not
// turn a request id into markup.
import { tailNotes, tailRows, tailSideText } from './tailText';
import { targetLabel } from '../explain/explainTable';
import {
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
  sessionRolesText,
  scopeLabel,
  signedMs,
  signedPct,
  tooFewToTestText,
  histogramMarks,
} from './format';
import type { RuleResult } from './ruleCheck';
import { escapeMarkdown } from '../markdownText';
import { PERCENTILES } from '../reportedPercentiles';
import { countOf } from '../numberText';
import { changeKind, changeText, verdictShort } from './changeWords';
import type { ComparisonReport, FindingChange, MetricComparison, QuantileComparison } from './types';

const KIND_MARK = { longer: '▲', shorter: '▼', shifted: '◆', none: '' } as const;

function quantileCell(m: MetricComparison, q: QuantileComparison): string {
  const change = `${formatMs(q.baseline)} → ${formatMs(q.candidate)} (${signedMs(q.diffMs)}, ${signedPct(q.diffPct)})`;
  const kind = changeKind(m.metric, q);
  if (kind !== 'none') return `**${change} ${KIND_MARK[kind]} ${kind}**`;
  const why = verdictShort(q);
  return why === '' || q.verdict === 'notTestable' ? change : `${change} ${escapeMarkdown(why)}`;
}

function rankCell(m: MetricComparison): string {
  if (m.rankTest === null) return m.status === 'compared' ? 'not testable' : '';
  const p = m.rankTest.pValue < 0.0001 ? '< 0.0001' : m.rankTest.pValue.toFixed(4);
  return m.rankTest.beyondNoise ? `**${p}**` : p;
}

const RULE_ICON = { crossed: '❌', unmeasured: '❌', withinNoise: '〰️', passed: '✅', notEvaluated: '❔' } as const;
const FINDING_ICON: Readonly<Record<FindingChange, string>> = {
  appeared: '🆕',
  disappeared: '✔️',
  persisted: '•',
  notCheckableInCandidate: '❔',
  notCheckableInBaseline: '❔',
};

export function compareMarkdown(report: ComparisonReport, rules: readonly RuleResult[] = []): string {
  const pct = Math.round(report.method.confidence * 1000) / 10;
  const out: string[] = [
    '### Stage Lens: compare',
    '',
    `**Baseline:** ${escapeMarkdown(runText(report.baseline))}  `,
    `**Candidate:** ${escapeMarkdown(runText(report.candidate))}`,
    '',
  ];
  const rolesText = sessionRolesText(report);
  if (rolesText !== null) out.push(escapeMarkdown(rolesText), '');
  if (report.stagesDiffer != null) out.push(`> ⚠️ ${escapeMarkdown(report.stagesDiffer)}`, '');

  if (rules.length > 0) {
    const failed = rules.filter((r) => r.failed).length;
    const aside = (['withinNoise', 'notEvaluated'] as const)
      .map((o) => [o, rules.filter((r) => r.outcome === o && !r.failed).length] as const)
      .filter(([, n]) => n > 0)
      .map(([o, n]) => `${n} ${o === 'withinNoise' ? 'crossed within noise' : 'not evaluated'}`);
    const extra = aside.length === 0 ? '' : ` (${aside.join(', ')})`;
    out.push(
      failed === 0
        ? `**Rules:** ✅ none of ${rules.length} failed${extra}`
        : `**Rules:** ❌ ${failed} of ${rules.length} failed${extra}`,
      '',
      '| | rule | result |',
      '|---|---|---|',
    );
    // ❔ alone is also a finding not checkable: the cell says the rule was not evaluated, then why.
    for (const r of rules)
      out.push(
        `| ${RULE_ICON[r.outcome]} | ${escapeMarkdown(r.rule)} | ${r.outcome === 'notEvaluated' ? 'not evaluated: ' : ''}${escapeMarkdown(r.detail)} |`,
      );
    out.push('');
  }

  const moved = report.metrics.flatMap((m) =>
    m.quantiles.filter((q) => q.verdict === 'changed').map((q) => ({ m, q })),
  );
  const threshold = `the larger of ${report.method.minChangeMs} ms and ${report.method.minChangePct}% of the baseline`;
  if (report.metrics.length > 0) {
    const tested = report.metrics.some((m) => m.quantiles.some((q) => q.beyondNoise !== null));
    const unflagged = report.metrics.reduce(
      (n, m) => n + m.quantiles.filter((q) => q.beyondNoise === true && q.verdict !== 'changed').length,
      0,
    );
    const aside =
      unflagged === 0
        ? ''
        : ` (${unflagged} beyond noise but below ${threshold}, or with too few values for the quantile)`;
    const tooFew = tooFewToTestText(report);
    if (!tested)
      out.push(
        tooFew === null
          ? '**Changed:** nothing could be tested (no metric measured in both runs with enough values).'
          : `**Changed:** nothing could be tested. ${escapeMarkdown(tooFew)}`,
        '',
      );
    else if (moved.length === 0) out.push(`**Changed:** nothing beyond noise and above ${threshold}${aside}.`, '');
    else {
      out.push(
        `**Changed** (${pct}% bootstrap CI of the difference excludes 0, |Δ| above ${threshold}, enough values for the quantile)${aside}:`,
        '',
        '| stage | metric | quantile | baseline ms | candidate ms | Δ ms | Δ % | CI of Δ ms | what changed |',
        '|---|---|---|--:|--:|--:|--:|---|---|',
      );
      for (const { m, q } of moved) {
        const ci = q.ci === null ? '' : `[${signedMs(q.ci.low)}, ${signedMs(q.ci.high)}]`;
        out.push(
          `| ${escapeMarkdown(scopeLabel(m.scope, report.stageRoles))} | ${metricLabel(m)} | ${q.quantile} | ${formatMs(q.baseline)} | ${formatMs(q.candidate)} | **${signedMs(q.diffMs)}** | ${signedPct(q.diffPct)} | ${ci} | ${escapeMarkdown(changeText(report, m, q))} |`,
        );
      }
      out.push('');
    }
    const oneSided = report.metrics.filter((m) => m.status === 'baselineOnly' || m.status === 'candidateOnly');
    if (oneSided.length > 0) {
      out.push('**Measured in one run only** (not a difference):', '');
      for (const m of oneSided)
        out.push(
          `- ${escapeMarkdown(scopeLabel(m.scope, report.stageRoles))} ${metricLabel(m)}: ${escapeMarkdown(oneSidedText(m, cutOffPerRun(report), debugLinesPerRun(report)))}`,
        );
      out.push('');
    }
  }

  out.push('**Findings**', '');
  if (report.findings.length === 0) out.push('- none in either run');
  for (const f of report.findings)
    out.push(`- ${FINDING_ICON[f.change]} ${CHANGE_LABEL[f.change]}: ${escapeMarkdown(findingText(f))}`);
  out.push('');

  const compared = report.metrics.filter((m) => m.status !== 'neither');
  if (compared.length > 0) {
    out.push(
      `<details><summary>All metrics (${compared.length})</summary>`,
      '',
      `ms over measured values only; n = measured values (baseline/candidate); **bold ▲ longer / ▼ shorter / ◆ shifted** = changed (beyond noise, above ${threshold}, enough values); ◆: a figure relative to the upstream stage, not faster or slower by itself; Δ % = Δ / |baseline| (its sign is Δ's where the baseline is negative).`,
      '',
    );
    out.push('| stage | metric | n | p50 | p90 | p99 | rank test p |', '|---|---|--:|---|---|---|--:|');
    for (const m of compared) {
      const cells =
        m.status === 'compared'
          ? m.quantiles.map((q) => quantileCell(m, q))
          : [escapeMarkdown(oneSidedText(m, cutOffPerRun(report), debugLinesPerRun(report))), '', ''];
      out.push(
        `| ${escapeMarkdown(scopeLabel(m.scope, report.stageRoles))} | ${metricLabel(m)} | ${countsText(m)} | ${cells.join(' | ')} | ${rankCell(m)} |`,
      );
    }
    out.push('', '</details>', '');
  }
  if (report.histograms.length > 0) {
    // A row observed in neither run is there because it is cut short (unknown, not empty).
    const seen = report.histograms.some((h) => h.status === 'neither') ? 'observed or cut short' : 'observed';
    out.push(
      `<details><summary>/metrics histograms (${countOf(report.histograms.length, 'latency row')} ${seen} in a run: per family and stage, replicas added)</summary>`,
      '',
      'Quantiles as PromQL histogram_quantile; significance not testable (no per-request values); ⚠️ = known to be wrong in a run, ✂️ = cut short in a run (unknown; see the notes); ≤ = in the lowest bucket (only its bound is known), ≥ = beyond the highest bucket, no difference between bounds.',
      '',
    );
    out.push('| family | labels | n | p50 | p90 | p99 |', '|---|---|--:|---|---|---|');
    for (const h of report.histograms) {
      const labels = escapeMarkdown(
        Object.entries(h.labels)
          .map(([k, v]) => `${k}=${v}`)
          .join(', '),
      );
      const n = histogramCounts(h);
      const noDiff = histogramNoDiffText(h);
      const cells =
        noDiff !== null
          ? PERCENTILES.map(
              (q, i) =>
                `${histogramSideCell(h.baseline, q)} → ${histogramSideCell(h.candidate, q)}${i === 0 ? ` (${escapeMarkdown(noDiff)})` : ''}`,
            )
          : h.quantiles.map((q) => {
              const diff = histogramDiffText(h, q);
              return `${histogramQuantileText(h.baseline, q.quantile, q.baseline)} → ${histogramQuantileText(h.candidate, q.quantile, q.candidate)}${diff.ms === 'bound' ? '' : ` (${diff.ms}, ${diff.pct})`}`;
            });
      out.push(
        `| ${escapeMarkdown(h.exposedName ?? h.family)}${h.unit === 'ms' ? ' (ms)' : ''}${histogramMarks(h, ' ✂️', ' ⚠️')} | ${labels} | ${n} | ${cells.join(' | ')} |`,
      );
    }
    out.push('', '</details>', '');
  }
  if (report.tail !== undefined && report.tail !== null) {
    const t = report.tail;
    out.push(
      `**Tail, p99 of ${escapeMarkdown(targetLabel(t.target, t.stageRoles))}:** ${escapeMarkdown(t.sentence)}`,
      '',
    );
    const rows = tailRows(t);
    if (rows.length > 0) out.push(`| part | baseline excess | candidate excess |`, '|---|--:|--:|');
    for (const r of rows)
      out.push(`| ${escapeMarkdown(r.label)} | ${escapeMarkdown(r.baseline)} | ${escapeMarkdown(r.candidate)} |`);
    // A one-request run's line is a sentence of its own, with its full stop.
    const side = (s: 'baseline' | 'candidate'): string => escapeMarkdown(tailSideText(t, s).replace(/\.?$/, '.'));
    out.push(
      ...(rows.length > 0 ? [''] : []),
      `Baseline: ${side('baseline')} Candidate: ${side('candidate')}`,
      '',
      ...tailNotes(t).flatMap((note) => [escapeMarkdown(note), '']),
    );
  }
  out.push('<details><summary>Method and notes</summary>', '');
  out.push(
    `- ${escapeMarkdown(report.method.bootstrap)}.`,
    `- Beyond noise: ${escapeMarkdown(report.method.beyondNoise)}; not testable below ${report.method.minSamples} values per run.`,
    `- Changed: ${escapeMarkdown(report.method.flagged)}.`,
    `- Rank test: ${escapeMarkdown(report.method.rankTest)}.`,
  );
  for (const n of report.notes) if (n !== report.stagesDiffer) out.push(`- ${escapeMarkdown(n)}`);
  out.push('', '</details>', '');
  return out.join('\n');
}
