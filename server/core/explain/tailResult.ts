// The answer of a tail attribution from its ingredients, whichever way they were found (a
// pass over the requests in scope, tailAttribution.ts, or the order statistics kept as
// requests arrive, tailState.ts): the tail's requests in index order with their target
// values, the target's median, and each part's median over the population. Sums run in
// index order, so both ways give the same numbers to the last bit.
import type { ExplainIndex } from './explainIndex';
import { contributionCanBeUnknown, forEachContribution, unknownContributionReason } from './tailContributions';
import { rowsCutUpstream, waitsWithinUpstream } from './upstreamCut';
import type { Target } from './targets';
import { TAIL_PERCENT, type TailAttribution, type TailPart, type TailQuantile, type UnmeasuredTailPart } from './types';
import { valuesAbovePercent } from '../reportedPercentiles';

const MAX_REQUEST_IDS = 50;

export interface TailIngredients {
  readonly target: Target;
  readonly quantile: TailQuantile;
  readonly boot?: number;
  readonly thresholdMs: number;
  readonly targetMedianMs: number;
  /** Requests in scope that measured the target. */
  readonly scopeCount: number;
  /** The tail's rows (target >= threshold), ascending, and their target values. */
  readonly tailRows: Int32Array;
  readonly tailValues: Float64Array;
  /** Median contribution of each part that makes up the target in this population (by part key). */
  readonly partMedians: ReadonlyMap<string, number>;
  /** Parts whose median 0 is their lying after the target's instant (afterTarget.ts), by part key. */
  readonly afterTarget: ReadonlyMap<string, { readonly requests: number; readonly of: number }>;
}

/**
 * The stages that ran while the stage before them still worked in more of the tail's requests
 * than not, among those whose positions tell (stagePlacement.ts).
 */
function alongsideStagesOf(index: ExplainIndex, tailRows: Int32Array): string[] {
  const out: string[] = [];
  const values = new Float64Array(tailRows.length);
  for (const stage of index.stages()) {
    stage.alongsideUpstream.read(tailRows, values);
    let yes = 0;
    let no = 0;
    for (const v of values) {
      if (v === 1) yes++;
      else if (v === 0) no++;
    }
    if (yes > no) out.push(stage.stageKey);
  }
  return out;
}

/** The tail's cold requests (the first after a server boot) and the part of the mean excess they bring. */
function coldInTail(index: ExplainIndex, t: TailIngredients): { requests: number; excessMs: number } {
  let requests = 0;
  let sum = 0;
  for (let j = 0; j < t.tailRows.length; j++) {
    if (index.isCold(t.tailRows[j]) !== 1) continue;
    requests++;
    sum += t.tailValues[j] - t.targetMedianMs;
  }
  return { requests, excessMs: sum / t.tailRows.length };
}

/**
 * Under a stage's TTFT: the tail requests whose TTFT of that stage includes a wait for upstream
 * output, and that wait summed over them, over the tail's count (as the excesses are).
 */
function ttftWaitedInTail(
  index: ExplainIndex,
  target: Target,
  tailRows: Int32Array,
): { requests: number; waitMs: number } | null {
  if (target.kind !== 'ttft') return null;
  const stage = index.stages().find((s) => s.stageKey === target.stageKey);
  if (stage === undefined) return null;
  const values = new Float64Array(tailRows.length);
  stage.ttftWaitedUpstream.read(tailRows, values);
  let requests = 0;
  let sum = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    requests++;
    sum += v;
  }
  return requests === 0 ? null : { requests, waitMs: sum / tailRows.length };
}

export function tailResult(index: ExplainIndex, t: TailIngredients): TailAttribution {
  const { tailRows, tailValues } = t;
  const tailCount = tailRows.length;
  let excess = 0;
  for (let j = 0; j < tailCount; j++) excess += tailValues[j] - t.targetMedianMs;
  excess /= tailCount;

  const parts: TailPart[] = [];
  const notMeasured: UnmeasuredTailPart[] = [];
  forEachContribution(index, t.target, tailRows, tailValues, (part, contributions, ms) => {
    const m = part.meta;
    const partMedian = t.partMedians.get(m.key);
    let sum = 0;
    let measuredIn = 0;
    let unknownIn = 0;
    for (let j = 0; j < tailCount; j++) {
      const c = contributions[j];
      if (Number.isNaN(c)) {
        if (!Number.isNaN(ms[j])) unknownIn++;
        continue;
      }
      sum += c - (partMedian ?? 0);
      measuredIn++;
    }
    if (partMedian === undefined || measuredIn === 0) {
      // It took time in the tail, but how much of it counts is nowhere known: said, not dropped.
      if (unknownIn > 0 && m.stageKey !== null && contributionCanBeUnknown(index, m, t.target))
        notMeasured.push({
          key: m.key,
          stageId: m.stageId,
          stageKey: m.stageKey,
          phase: m.phase,
          withUnmeasuredPhases: true,
          reason: unknownContributionReason(m.stageKey),
        });
      return;
    }
    const after = t.afterTarget.get(m.key);
    const partExcess = sum / tailCount;
    parts.push({
      key: m.key,
      stageId: m.stageId,
      stageKey: m.stageKey,
      phase: m.phase,
      ...(m.edge === null ? {} : { edge: m.edge }),
      ...(m.component === null ? {} : { component: m.component }),
      excessMs: partExcess,
      share: Math.abs(excess) < 1e-9 ? null : partExcess / excess,
      medianMs: partMedian,
      measuredIn,
      ...(after === undefined ? {} : { afterTarget: after }),
      ...(m.phase === 'genOther' && m.stageKey !== null && index.holdsUnmeasuredPhases(m.stageKey)
        ? { withUnmeasuredPhases: true as const }
        : {}),
    });
  });
  parts.sort((a, b) => b.excessMs - a.excessMs || (a.key < b.key ? -1 : 1));
  let explained = 0;
  for (const p of parts) explained += p.excessMs;

  const alongside = alongsideStagesOf(index, tailRows);
  const needed = valuesAbovePercent(TAIL_PERCENT[t.quantile]);
  const cut = rowsCutUpstream(index, t.target, tailRows, tailValues);
  const waits = waitsWithinUpstream(index, t.target, tailRows, tailValues);
  const cold = coldInTail(index, t);
  const ttftWaited = ttftWaitedInTail(index, t.target, tailRows);
  const slowest = Array.from({ length: tailCount }, (_, j) => j).sort(
    (a, b) => tailValues[b] - tailValues[a] || tailRows[a] - tailRows[b],
  );
  return {
    target: t.target.name,
    quantile: t.quantile,
    ...(t.boot === undefined ? {} : { boot: t.boot }),
    thresholdMs: t.thresholdMs,
    requestCount: tailCount,
    scopeCount: t.scopeCount,
    targetMedianMs: t.targetMedianMs,
    excessMs: excess,
    parts,
    residualMs: excess - explained,
    ...(alongside.length === 0 ? {} : { alongsideStages: alongside }),
    ...(cut === 0 ? {} : { upstreamUntilInput: cut }),
    ...(waits.length === 0 ? {} : { waitsWithinUpstream: waits }),
    ...(t.scopeCount < needed ? { fewValues: { needed } } : {}),
    coldRequests: cold.requests,
    coldExcessMs: cold.excessMs,
    ...(ttftWaited === null ? {} : { ttftWaitedUpstream: ttftWaited }),
    ...(notMeasured.length === 0 ? {} : { notMeasured }),
    requestIds: slowest.slice(0, MAX_REQUEST_IDS).map((j) => index.requestId(tailRows[j])),
  };
}
