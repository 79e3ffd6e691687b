// Tail attribution of both runs side by side: the same target (the main one both runs
// measure: time to first audio on TTS, else end to end) at p99, each run's parts with
// their mean excess, and one sentence saying where the excess went ("the p99 excess of
// end-to-end time moved from stage 1 input wait to stage 0 prefill"). Each run's tail
// is computed within its own requests; nothing is subtracted across runs.
import { ExplainIndex } from '../explain/explainIndex';
import { partLabel, targetLabel } from '../explain/explainTable';
import { mainTargetOf } from '../explain/mainTarget';
import { additiveTail } from '../explain/overlapApart';
import { tailAttribution } from '../explain/tailAttribution';
import type { TailAttribution, TargetName } from '../explain/types';
import type { AnalyzedRequest } from '../analysis/types';
import type { RunTails, TailComparison } from './types';
import { signedDurationText as ms } from '../numberText';

/** Collects a run's requests into an explain index; the tails are computed at the end. */
export class RunTailsBuilder {
  private readonly index = new ExplainIndex();

  add(request: AnalyzedRequest): void {
    this.index.add(request);
  }

  finish(): RunTails | null {
    if (this.index.length === 0) return null;
    const mainTarget = mainTargetOf(this.index);
    const tails: Record<TargetName, TailAttribution> = {};
    for (const target of new Set([mainTarget, 'e2e'])) {
      if (target === null) continue;
      const t = tailAttribution(this.index, { target, quantile: 'p99', scope: {} });
      if (t !== null) tails[target] = t;
    }
    return { mainTarget, tails };
  }
}

/** The part that leads the tail: never a part set apart as the same time seen twice (additiveTail). */
function topPart(t: TailAttribution): TailAttribution['parts'][number] | null {
  const first = additiveTail(t).parts[0];
  return first !== undefined && first.excessMs > 0 ? first : null;
}

/** Where the p99 excess of the target lies in each run, in one sentence. */
export function tailSentence(
  target: TargetName,
  baseline: TailAttribution | null,
  candidate: TailAttribution | null,
  oneOutput: readonly string[] = [],
  roles: Readonly<Record<string, string>> = {},
): string {
  const what = `the p99 excess of ${targetLabel(target, roles)}`;
  if (baseline === null || candidate === null)
    return `${what} is known in ${baseline === null ? 'the candidate' : 'the baseline'} only.`;
  const b = topPart(baseline);
  const c = topPart(candidate);
  if (b === null || c === null)
    return `${what}: ${ms(baseline.excessMs)} in the baseline, ${ms(candidate.excessMs)} in the candidate (no part stands out in ${b === null ? 'the baseline' : 'the candidate'}).`;
  const excess = `(${ms(baseline.excessMs)} → ${ms(candidate.excessMs)} over the median)`;
  if (b.key === c.key)
    return `${what} stayed in ${partLabel(b, oneOutput, roles)}: ${ms(b.excessMs)} → ${ms(c.excessMs)} ${excess}.`;
  return `${what} moved from ${partLabel(b, oneOutput, roles)} (${ms(b.excessMs)}) to ${partLabel(c, oneOutput, roles)} (${ms(c.excessMs)}) ${excess}.`;
}

/** The target both runs measure: the baseline's main one when the candidate has it too, else e2e. */
export function compareTails(
  baseline: RunTails | null,
  candidate: RunTails | null,
  oneOutput: readonly string[] = [],
  roles: Readonly<Record<string, string>> = {},
): TailComparison | null {
  if (baseline === null && candidate === null) return null;
  const candidates = [baseline?.mainTarget, candidate?.mainTarget, 'e2e'].filter(
    (t): t is string => t !== null && t !== undefined,
  );
  const target =
    candidates.find((t) => baseline?.tails[t] !== undefined && candidate?.tails[t] !== undefined) ??
    candidates.find((t) => (baseline?.tails[t] ?? candidate?.tails[t]) !== undefined);
  if (target === undefined) return null;
  const inBaseline = baseline?.tails[target];
  const inCandidate = candidate?.tails[target];
  const b = inBaseline ?? null;
  const c = inCandidate ?? null;
  return {
    target,
    quantile: 'p99',
    baseline: b,
    candidate: c,
    oneOutputStages: oneOutput,
    stageRoles: roles,
    sentence: tailSentence(target, b, c, oneOutput, roles),
  };
}
