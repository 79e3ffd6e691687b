// The comparison as GitHub-flavoured Markdown for a pull-request comment: rules and what
// moved beyond noise first, findings that appeared or disappeared, then every metric in a
// collapsed section. Strings from logs (paths, messages) are escaped: a comment must not
// turn a request id into markup.
import { CHANGE_LABEL, countsText, findingText, formatMs, histogramCounts, metricLabel, oneSidedText, runText, scopeLabel, signedMs, signedPct } from './format';
import type { RuleResult } from './ruleCheck';
import type { ComparisonReport, FindingChange, MetricComparison, QuantileComparison } from './types';

/** Escapes Markdown and HTML: entities for <, >, &; a backslash before the punctuation GitHub reads as markup inline (links need [ ], so parentheses stay). */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

function quantileCell(q: QuantileComparison): string {
  const change = `${formatMs(q.baseline)} → ${formatMs(q.candidate)} (${signedMs(q.diffMs)}, ${signedPct(q.diffPct)})`;
  if (q.beyondNoise === true) return `**${change} ${q.diffMs > 0 ? '▲' : '▼'}**`;
  return change;
}

function rankCell(m: MetricComparison): string {
  if (m.rankTest === null) return m.status === 'compared' ? 'not testable' : '';
  const p = m.rankTest.pValue < 0.0001 ? '< 0.0001' : m.rankTest.pValue.toFixed(4);
  return m.rankTest.beyondNoise ? `**${p}**` : p;
}

const RULE_ICON = { crossed: '❌', withinNoise: '〰️', passed: '✅', notEvaluated: '❔' } as const;
const FINDING_ICON: Readonly<Record<FindingChange, string>> = { appeared: '🆕', disappeared: '✔️', persisted: '•' };

export function compareMarkdown(report: ComparisonReport, rules: readonly RuleResult[] = []): string {
  const pct = Math.round(report.method.confidence * 1000) / 10;
  const out: string[] = ['### Stage Lens: compare', '', `**Baseline:** ${escapeMarkdown(runText(report.baseline))}  `, `**Candidate:** ${escapeMarkdown(runText(report.candidate))}`, ''];

  if (rules.length > 0) {
    const failed = rules.filter((r) => r.failed).length;
    const aside = (['withinNoise', 'notEvaluated'] as const)
      .map((o) => [o, rules.filter((r) => r.outcome === o && !r.failed).length] as const)
      .filter(([, n]) => n > 0)
      .map(([o, n]) => `${n} ${o === 'withinNoise' ? 'crossed within noise' : 'not evaluated'}`);
    const extra = aside.length === 0 ? '' : ` (${aside.join(', ')})`;
    out.push(failed === 0 ? `**Rules:** ✅ none of ${rules.length} failed${extra}` : `**Rules:** ❌ ${failed} of ${rules.length} failed${extra}`, '', '| | rule | result |', '|---|---|---|');
    for (const r of rules) out.push(`| ${RULE_ICON[r.outcome]} | ${escapeMarkdown(r.rule)} | ${escapeMarkdown(r.detail)} |`);
    out.push('');
  }

  const moved = report.metrics.flatMap((m) => m.quantiles.filter((q) => q.beyondNoise === true).map((q) => ({ m, q })));
  if (report.metrics.length > 0) {
    const tested = report.metrics.some((m) => m.quantiles.some((q) => q.beyondNoise !== null));
    if (!tested) out.push('**Beyond noise:** nothing could be tested (no metric measured in both runs with enough values).', '');
    else if (moved.length === 0) out.push(`**Beyond noise:** nothing (the ${pct}% bootstrap CI of every quantile difference includes 0).`, '');
    else {
      out.push(`**Beyond noise** (${pct}% bootstrap CI of the difference excludes 0):`, '', '| stage | metric | quantile | baseline ms | candidate ms | Δ ms | Δ % | CI of Δ ms |', '|---|---|---|--:|--:|--:|--:|---|');
      for (const { m, q } of moved) {
        const ci = q.ci === null ? '' : `[${signedMs(q.ci.low)}, ${signedMs(q.ci.high)}]`;
        out.push(`| ${escapeMarkdown(scopeLabel(m.scope))} | ${metricLabel(m)} | ${q.quantile} | ${formatMs(q.baseline)} | ${formatMs(q.candidate)} | **${signedMs(q.diffMs)}** | ${signedPct(q.diffPct)} | ${ci} |`);
      }
      out.push('');
    }
    const oneSided = report.metrics.filter((m) => m.status === 'baselineOnly' || m.status === 'candidateOnly');
    if (oneSided.length > 0) {
      out.push('**Measured in one run only** (not a difference):', '');
      for (const m of oneSided) out.push(`- ${escapeMarkdown(scopeLabel(m.scope))} ${metricLabel(m)}: ${escapeMarkdown(oneSidedText(m))}`);
      out.push('');
    }
  }

  out.push('**Findings**', '');
  if (report.findings.length === 0) out.push('- none in either run');
  for (const f of report.findings) out.push(`- ${FINDING_ICON[f.change]} ${CHANGE_LABEL[f.change]}: ${escapeMarkdown(findingText(f))}`);
  out.push('');

  const compared = report.metrics.filter((m) => m.status !== 'neither');
  if (compared.length > 0) {
    out.push(`<details><summary>All metrics (${compared.length})</summary>`, '', 'ms over measured values only; n = measured values (baseline/candidate); **bold ▲/▼** = beyond noise.', '');
    out.push('| stage | metric | n | p50 | p90 | p99 | rank test p |', '|---|---|--:|---|---|---|--:|');
    for (const m of compared) {
      const cells = m.status === 'compared' ? m.quantiles.map(quantileCell) : [escapeMarkdown(oneSidedText(m)), '', ''];
      out.push(`| ${escapeMarkdown(scopeLabel(m.scope))} | ${metricLabel(m)} | ${countsText(m)} | ${cells.join(' | ')} | ${rankCell(m)} |`);
    }
    out.push('', '</details>', '');
  }
  if (report.histograms.length > 0) {
    out.push(`<details><summary>/metrics histograms (${report.histograms.length} series)</summary>`, '', 'Quantiles as PromQL histogram_quantile; significance not testable (no per-request values); ⚠️ = known to be wrong in a run (see the notes).', '');
    out.push('| family | labels | n | p50 | p90 | p99 |', '|---|---|--:|---|---|---|');
    for (const h of report.histograms) {
      const labels = escapeMarkdown(Object.entries(h.labels).map(([k, v]) => `${k}=${v}`).join(', '));
      const n = histogramCounts(h);
      const cells = h.status === 'compared' ? h.quantiles.map(quantileCell) : [h.status === 'baselineOnly' ? 'baseline only' : 'candidate only', '', ''];
      const lie = h.baseline?.caveat ?? h.candidate?.caveat ?? null;
      out.push(`| ${escapeMarkdown(h.family)}${h.unit === 'ms' ? ' (ms)' : ''}${lie === null ? '' : ' ⚠️'} | ${labels} | ${n} | ${cells.join(' | ')} |`);
    }
    out.push('', '</details>', '');
  }
  out.push('<details><summary>Method and notes</summary>', '');
  out.push(`- ${escapeMarkdown(report.method.bootstrap)}.`, `- Beyond noise: ${escapeMarkdown(report.method.beyondNoise)}; not testable below ${report.method.minSamples} values per run.`, `- Rank test: ${escapeMarkdown(report.method.rankTest)}.`);
  for (const n of report.notes) out.push(`- ${escapeMarkdown(n)}`);
  out.push('', '</details>', '');
  return out.join('\n');
}
