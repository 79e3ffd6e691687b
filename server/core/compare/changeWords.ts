// What a quantile difference means, in words, for the terminal table, the Markdown report
// and the Compare panel alike. Durations get longer or shorter; "+1st output" (this stage's
// first output minus its upstream stage's, within each request) is relative: a lower value
// says the stage's first output moved earlier *relative to its upstream*, which is not
// faster by itself (the upstream may have got slower), so its own first output is cited.
import { formatMs } from '../textTable';
import { compareScopes } from './runSamples';
import type { ChangeVerdict, ComparisonReport, MetricComparison, MetricId, QuantileComparison } from './types';

/** Metrics whose value is relative to another stage: no colour of better or worse. */
const RELATIVE: ReadonlySet<MetricId> = new Set<MetricId>(['addedFirstOutput']);

/**
 *  longer / shorter   a flagged change of a duration
 *  shifted            a flagged change of a relative figure (+1st output)
 *  none               not flagged (see the verdict)
 */
export type ChangeKind = 'longer' | 'shorter' | 'shifted' | 'none';

export function changeKind(metric: MetricId, q: QuantileComparison): ChangeKind {
  if (q.verdict !== 'changed') return 'none';
  if (RELATIVE.has(metric)) return 'shifted';
  return q.diffMs > 0 ? 'longer' : 'shorter';
}

const signed = (v: number): string => `${v > 0 ? '+' : v < 0 ? '-' : ''}${formatMs(Math.abs(v))}`;
const pct = (v: number | null): string =>
  v === null
    ? ''
    : ` (${v > 0 ? '+' : v < 0 ? '-' : ''}${Math.abs(v) >= 100 ? Math.abs(v).toFixed(0) : Math.abs(v).toFixed(1)}%)`;

/** Short reason a difference is not flagged: `within noise`, `≤ 0.1 ms`, `p99 needs n ≥ 100`, `not testable`; '' when flagged. */
export function verdictShort(q: QuantileComparison): string {
  const reasons: Readonly<Record<ChangeVerdict, string>> = {
    changed: '',
    withinNoise: 'within noise',
    belowThreshold: `≤ ${formatMs(q.thresholdMs)} ms`,
    fewSamples: `${q.quantile} needs n ≥ ${q.minSamples}`,
    notTestable: 'not testable',
  };
  return reasons[q.verdict];
}

/** The scope before this one in the report (the upstream stage), for "+1st output". */
function upstreamOf(report: ComparisonReport, scope: string): string | null {
  const stages = [...new Set(report.metrics.map((m) => m.scope))]
    .filter((s) => s !== 'request' && !s.includes('->'))
    .sort(compareScopes);
  const i = stages.indexOf(scope);
  return i > 0 ? stages[i - 1] : null;
}

/**
 * One sentence for a quantile difference: what changed when it is flagged, why it is not
 * otherwise. `report` lets "+1st output" cite the stage's own first output.
 */
export function changeText(report: ComparisonReport, m: MetricComparison, q: QuantileComparison): string {
  const kind = changeKind(m.metric, q);
  if (kind === 'none') {
    switch (q.verdict) {
      case 'belowThreshold':
        return `${q.quantile} ${signed(q.diffMs)} ms: beyond noise, but no larger than the practical threshold of ${formatMs(q.thresholdMs)} ms`;
      case 'fewSamples':
        return `${q.quantile} ${signed(q.diffMs)} ms: not flagged, ${q.quantile} needs at least ${q.minSamples} measured values per run (${m.baseline.measured}/${m.candidate.measured})`;
      case 'withinNoise':
        return `${q.quantile} ${signed(q.diffMs)} ms: within noise`;
      default:
        return `${q.quantile} ${signed(q.diffMs)} ms: significance not testable${q.notTestable === null ? '' : ` (${q.notTestable})`}`;
    }
  }
  if (kind !== 'shifted') return `${q.quantile} ${formatMs(Math.abs(q.diffMs))} ms ${kind}${pct(q.diffPct)}`;
  const upstream = upstreamOf(report, m.scope);
  const relativeTo = upstream === null ? "its upstream stage's" : `stage ${upstream}'s`;
  const direction = q.diffMs < 0 ? 'earlier' : 'later';
  const own = report.metrics
    .find((x) => x.scope === m.scope && x.metric === 'firstOutput')
    ?.quantiles.find((x) => x.quantile === q.quantile);
  const ownText =
    own === undefined
      ? `stage ${m.scope}'s own time to first output was not compared`
      : `stage ${m.scope}'s own 1st output ${q.quantile} went ${formatMs(own.baseline)} → ${formatMs(own.candidate)} ms (${own.verdict === 'changed' ? `${formatMs(Math.abs(own.diffMs))} ms ${own.diffMs > 0 ? 'longer' : 'shorter'}` : verdictShort(own)})`;
  return `${q.quantile} first output ${formatMs(Math.abs(q.diffMs))} ms ${direction} relative to ${relativeTo} first output: not faster or slower by itself (${ownText})`;
}
