// Tail attribution of both runs side by side: the same target (the main one both runs
// measure: time to first audio on TTS, else end to end) at p99, each run's parts with
// their mean excess, and one sentence saying where the excess went ("the p99 excess of
// end-to-end time moved from stage 1 input wait to stage 0 prefill"). Each run's tail
// is computed within its own requests; nothing is subtracted across runs. A run where one
// request alone measured the target has no tail (targetTails, as explain): that side is said
// with its request and value, and only the other run's tail is drawn.
import { ExplainIndex } from '../explain/explainIndex';
import { partLabel, phaseWord, targetLabel } from '../explain/explainTable';
import { mainTargetOf } from '../explain/mainTarget';
import { additiveTail } from '../explain/overlapApart';
import { targetTails } from '../explain/targetTails';
import type { OneRequestTarget, TailAttribution, TargetName } from '../explain/types';
import type { AnalyzedRequest } from '../analysis/types';
import type { RunTails, TailComparison } from './types';
import { signedDurationText as ms } from '../numberText';
import { stageLabel } from '../stageRoles';

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
    const oneRequest: Record<TargetName, OneRequestTarget> = {};
    for (const target of new Set([mainTarget, 'e2e'])) {
      if (target === null) continue;
      const split = targetTails(this.index, target, 'p99', {}, [undefined]);
      const [tail] = split.tails;
      const [one] = split.oneRequest;
      if (tail !== undefined) tails[target] = tail;
      if (one !== undefined) oneRequest[target] = one;
    }
    return { mainTarget, tails, oneRequest };
  }
}

/** The part that leads the tail: never a part set apart as the same time seen twice (additiveTail). */
function topPart(t: TailAttribution): TailAttribution['parts'][number] | null {
  const first = additiveTail(t).parts[0];
  return first !== undefined && first.excessMs > 0 ? first : null;
}

/** Each run's one request that alone measured the target (no tail), where there is one. */
export interface OneRequestSides {
  readonly baseline: OneRequestTarget | null;
  readonly candidate: OneRequestTarget | null;
}

const NO_ONE_REQUEST: OneRequestSides = { baseline: null, candidate: null };

/** Where the p99 excess of the target lies in each run, in one sentence. */
export function tailSentence(
  target: TargetName,
  baseline: TailAttribution | null,
  candidate: TailAttribution | null,
  oneOutput: readonly string[] = [],
  roles: Readonly<Record<string, string>> = {},
  oneRequest: OneRequestSides = NO_ONE_REQUEST,
): string {
  const what = `the p99 excess of ${targetLabel(target, roles)}`;
  if (oneRequest.baseline !== null || oneRequest.candidate !== null)
    return oneRequestSentence(what, baseline ?? candidate, oneRequest, oneOutput, roles);
  if (baseline === null || candidate === null)
    return `${what} is known in ${baseline === null ? 'the candidate' : 'the baseline'} only.`;
  const b = topPart(baseline);
  const c = topPart(candidate);
  if (b === null || c === null)
    return `${what}: ${ms(baseline.excessMs)} in the baseline, ${ms(candidate.excessMs)} in the candidate (no part stands out in ${b === null ? 'the baseline' : 'the candidate'}).`;
  const excess = `(${ms(baseline.excessMs)} → ${ms(candidate.excessMs)} over the median)`;
  if (b.key === c.key)
    return `${what} stayed in ${partLabel(b, oneOutput, roles)}: ${ms(b.excessMs)} → ${ms(c.excessMs)} ${excess}.`;
  // One stage in both runs, one of which prints no split of its gen time: the other run's phase
  // may lie inside that unsplit time, so the words cannot say the excess moved between them.
  const unsplit = b.withUnmeasuredPhases === true ? 'baseline' : c.withUnmeasuredPhases === true ? 'candidate' : null;
  if (unsplit !== null && b.stageKey !== null && b.stageKey === c.stageKey)
    return (
      `${what} lies in ${stageLabel(b.stageKey, roles)} in both runs: its ${phaseWord(b, oneOutput)} in the baseline (${ms(b.excessMs)}), ` +
      `its ${phaseWord(c, oneOutput)} in the candidate (${ms(c.excessMs)}) ${excess}; the ${unsplit} does not split that stage's gen time, ` +
      'so this is no move from one phase to another.'
    );
  return `${what} moved from ${partLabel(b, oneOutput, roles)} (${ms(b.excessMs)}) to ${partLabel(c, oneOutput, roles)} (${ms(c.excessMs)}) ${excess}.`;
}

/**
 * A run with one request for the target has no tail to set against the other's: the sentence
 * says which run had one request and where the other run's excess lies (`tail`, when it has one).
 */
function oneRequestSentence(
  what: string,
  tail: TailAttribution | null,
  oneRequest: OneRequestSides,
  oneOutput: readonly string[],
  roles: Readonly<Record<string, string>>,
): string {
  if (oneRequest.baseline !== null && oneRequest.candidate !== null)
    return `${what}: neither run has a tail, only one request measured it in each.`;
  const [alone, other] = oneRequest.baseline !== null ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
  if (tail === null)
    return `${what}: neither run has a tail, only one request measured it in the ${alone} and none in the ${other}.`;
  const top = topPart(tail);
  const where = top === null ? '' : `, most in ${partLabel(top, oneOutput, roles)} (${ms(top.excessMs)})`;
  return `${what}: ${ms(tail.excessMs)} over the median in the ${other}${where}; the ${alone} has no tail, only one request measured it.`;
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
  // A target one request measured is measured: its run says so rather than losing the target.
  const measures = (run: RunTails | null | undefined, t: TargetName): boolean =>
    run?.tails[t] !== undefined || run?.oneRequest[t] !== undefined;
  const target =
    candidates.find((t) => measures(baseline, t) && measures(candidate, t)) ??
    candidates.find((t) => measures(baseline, t) || measures(candidate, t));
  if (target === undefined) return null;
  const b = baseline?.tails[target] ?? null;
  const c = candidate?.tails[target] ?? null;
  const oneRequest = {
    baseline: baseline?.oneRequest[target] ?? null,
    candidate: candidate?.oneRequest[target] ?? null,
  };
  return {
    target,
    quantile: 'p99',
    baseline: b,
    candidate: c,
    oneRequest,
    oneOutputStages: oneOutput,
    stageRoles: roles,
    sentence: tailSentence(target, b, c, oneOutput, roles, oneRequest),
  };
}
