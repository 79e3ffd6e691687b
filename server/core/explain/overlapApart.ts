// Which parts of a tail attribution are set apart because they overlap others in time. Where
// the residual is negative, parts ran at the same time, so their excesses count some time
// twice. Two shapes of it, both a downstream stage seeing the upstream stages' time:
//  - inputWait: a downstream stage waits for its input (input wait, or its queued time, which
//    holds that wait when the split is not printed) while the upstream stages work; along a
//    chain of three stages each downstream stage's wait;
//  - alongside: under async chunk a downstream stage runs while the upstream stages work, fed
//    as they produce, so its phases' time lies within theirs.
// Under a later stage's first output the upstream cut (upstreamCut.ts) knows where a stage's
// input wait lies within the time the stages above it count, at every step of a chain: those
// waits are set apart first, whatever the residual (waitsWithinUpstream), then the rules below
// look for what overlap is left.
// Either shape needs the stage to have run while its upstream worked: a negative residual alone
// does not show it (the printed values of stages that ran one after the other can disagree too),
// so only the stages the tail's request positions show alongside (alongsideStages) are set apart,
// except a measured input wait, which is the wait for upstream by definition.
// explain, compare, the views and the deploy hint show those parts apart and add up the others
// (the views' sentences: webview/shared/tailModel.ts); the JSON keeps every part.
import { firstStageIdOf } from '../analysis/crossStage';
import type { TailAttribution, TailPart } from './types';

type Tail = Pick<TailAttribution, 'parts' | 'residualMs' | 'excessMs' | 'alongsideStages' | 'waitsWithinUpstream'>;

/** A residual this far below 0 (of the target's excess) is parts that overlap, not rounding. */
const OVERLAP_SHARE = 0.05;

function ranAlongside(t: Tail, stageKey: string | null): boolean {
  return stageKey !== null && t.alongsideStages !== undefined && t.alongsideStages.includes(stageKey);
}

/** A set of parts is the overlap when its excess is at least half of it and not more than twice it. */
function isOverlap(excessMs: number, overlapMs: number): boolean {
  return excessMs >= overlapMs / 2 && overlapMs >= excessMs / 2;
}

/**
 * The downstream waits behind the overlap: the wait with the largest positive excess when it is
 * the overlap (isOverlap); else, along a chain of stages (thinker -> talker -> code2wav, each
 * waiting for the one above), each downstream stage's largest wait when together they are.
 * Empty when the residual (after the waits the cut set apart) is not negative or no wait is.
 */
function overlapWaits(t: Tail, residualMs: number, apart: ReadonlyMap<TailPart, ApartReason>): TailPart[] {
  if (!(residualMs < 0)) return [];
  const overlap = -residualMs;
  const first = firstStageIdOf(t.parts);
  const byStage = new Map<string, TailPart>();
  let largest: TailPart | null = null;
  for (const p of t.parts) {
    const waits = p.phase === 'inputWait' || (p.phase === 'queued' && ranAlongside(t, p.stageKey));
    if (!waits || p.stageId === null || p.stageKey === null || p.stageId <= first || !(p.excessMs > 0)) continue;
    if (apart.has(p)) continue;
    const held = byStage.get(p.stageKey);
    if (held === undefined || p.excessMs > held.excessMs) byStage.set(p.stageKey, p);
    if (largest === null || p.excessMs > largest.excessMs) largest = p;
  }
  if (largest === null) return [];
  if (isOverlap(largest.excessMs, overlap)) return [largest];
  const chain = [...byStage.values()];
  const sum = chain.reduce((a, p) => a + p.excessMs, 0);
  return chain.length > 1 && isOverlap(sum, overlap) ? chain : [];
}

/** The input waits the upstream cut found within the stages above them (TailAttribution.waitsWithinUpstream) that add to the tail. */
function waitsWithinUpstreamOf(t: Tail): TailPart[] {
  const stages = t.waitsWithinUpstream;
  if (stages === undefined) return [];
  return t.parts.filter(
    (p) => p.phase === 'inputWait' && p.stageKey !== null && stages.includes(p.stageKey) && p.excessMs > 0,
  );
}

/** A downstream stage's parts and the sum of their excesses. */
interface StageGroup {
  readonly stageId: number;
  readonly parts: TailPart[];
  excessMs: number;
}

/** The parts of each stage after the first (those not already apart), the furthest downstream first. */
function downstreamStages(t: Tail, apart: ReadonlyMap<TailPart, ApartReason>): StageGroup[] {
  const first = firstStageIdOf(t.parts);
  const groups = new Map<string, StageGroup>();
  for (const p of t.parts) {
    if (p.stageId === null || p.stageKey === null || p.stageId <= first || apart.has(p)) continue;
    if (!ranAlongside(t, p.stageKey)) continue;
    let g = groups.get(p.stageKey);
    if (g === undefined) groups.set(p.stageKey, (g = { stageId: p.stageId, parts: [], excessMs: 0 }));
    g.parts.push(p);
    g.excessMs += p.excessMs;
  }
  return [...groups.values()].sort((a, b) => b.stageId - a.stageId);
}

export type ApartReason = 'inputWait' | 'alongside';

/** A part shown apart: not added, no share. */
export interface ApartPart {
  /** The part, with only the excess set apart where that is part of it (ofMs). */
  readonly part: TailPart;
  readonly because: ApartReason;
  /**
   * Present when only part of the part's excess is apart: the part's whole excess. The rest
   * stays among the added parts (a stage's time of its own beyond the time it ran alongside
   * its upstream).
   */
  readonly ofMs?: number;
}

/** A tail's parts as they add up: the overlapping parts apart, the residual without them. */
export interface AdditiveTail {
  /** The parts whose excesses add up to the target's, largest first (those apart left out, a part partly apart with the rest of its excess). */
  readonly parts: readonly TailPart[];
  /** The downstream parts behind the overlap, largest excess first. */
  readonly apart: readonly ApartPart[];
  /** What the parts above do not explain: the attribution's residual with the apart parts' time given back. */
  readonly residualMs: number;
}

/**
 * The tail as the CLI and the views show it. A downstream stage's wait, or its phases under
 * async chunk, are the upstream stages' time seen from downstream: counting them as well would
 * put both near 100% and take it back in a residual near −100%.
 */
export function additiveTail(t: Tail): AdditiveTail {
  const apart = new Map<TailPart, ApartReason>();
  let residualMs = t.residualMs;
  for (const wait of waitsWithinUpstreamOf(t)) {
    apart.set(wait, 'inputWait');
    residualMs += wait.excessMs;
  }
  for (const wait of overlapWaits(t, residualMs, apart)) {
    apart.set(wait, 'inputWait');
    residualMs += wait.excessMs;
  }
  // What overlap is left lies in downstream stages' own phases (async chunk), the furthest
  // downstream first: fed by every stage above it, it is the one that sees their time (a
  // thinker's talker and code2wav both grow with a slow talker; the code2wav is the echo).
  for (const group of downstreamStages(t, apart)) {
    const overlap = -residualMs;
    if (!(overlap > OVERLAP_SHARE * Math.abs(t.excessMs))) break;
    // A stage far slower than the overlap has time of its own beyond it and stays in the sum. The
    // overlap is beyond rounding (above), so a group of its size (at least half) is no rounding
    // either: no floor of its own, or a stage holding 5-10% of the excess would stay counted twice.
    if (!isOverlap(group.excessMs, overlap)) continue;
    for (const p of group.parts) apart.set(p, 'alongside');
    residualMs += group.excessMs;
  }
  // A stage that ran alongside its upstream and is far slower than what overlap is left (a
  // talker decoding long after the thinker it ran alongside ended) has time of its own beyond
  // it: only the part of its time that lies within the upstream stages' is seen twice.
  const withinUpstream = new Map<TailPart, number>();
  for (const group of downstreamStages(t, apart)) {
    const overlap = -residualMs;
    if (!(overlap > OVERLAP_SHARE * Math.abs(t.excessMs))) break;
    // One smaller than the overlap does not hold it (the rule above took one of its size whole).
    if (!(group.excessMs > 2 * overlap)) continue;
    const upstream = upstreamExcessMs(t, group.stageId, apart);
    const largest = group.parts.reduce((a, p) => (p.excessMs > a.excessMs ? p : a));
    const withinMs = Math.min(overlap, upstream, largest.excessMs);
    if (!(withinMs > OVERLAP_SHARE * Math.abs(t.excessMs))) continue;
    withinUpstream.set(largest, withinMs);
    residualMs += withinMs;
  }
  if (apart.size === 0 && withinUpstream.size === 0) return { parts: t.parts, apart: [], residualMs: t.residualMs };
  const shown: ApartPart[] = [];
  const parts: TailPart[] = [];
  for (const p of t.parts) {
    const because = apart.get(p);
    const withinMs = withinUpstream.get(p);
    if (because !== undefined) shown.push({ part: p, because });
    else if (withinMs === undefined) parts.push(p);
    else {
      shown.push({ part: withExcess(p, withinMs, t.excessMs), because: 'alongside', ofMs: p.excessMs });
      parts.push(withExcess(p, p.excessMs - withinMs, t.excessMs));
    }
  }
  parts.sort((a, b) => b.excessMs - a.excessMs || (a.key < b.key ? -1 : 1));
  return { parts, apart: shown, residualMs };
}

/** The positive excess of the parts of the stages upstream of `stageId` that are added up: the most of a downstream stage's time that can lie within theirs. */
function upstreamExcessMs(t: Tail, stageId: number, apart: ReadonlyMap<TailPart, ApartReason>): number {
  let sum = 0;
  for (const p of t.parts)
    if (p.stageId !== null && p.stageId < stageId && !apart.has(p) && p.excessMs > 0) sum += p.excessMs;
  return sum;
}

/** A part with part of its excess, its share of the target's excess to match. */
function withExcess(p: TailPart, excessMs: number, targetExcessMs: number): TailPart {
  return { ...p, excessMs, share: Math.abs(targetExcessMs) < 1e-9 ? null : excessMs / targetExcessMs };
}

/**
 * Said of a downstream queued time set apart as the input wait it holds: without the printed
 * split it also holds the wait for a scheduling slot once the input was there (seed 001).
 */
export const QUEUED_HOLDS_WAIT =
  'a queued time the log does not split (no vllm_input_wait_ms / vllm_ready_queued_ms) also holds any wait for a scheduling slot after the input came, which cannot be told apart from it';

/** How a consumer names a part, a stage and a signed duration. */
export interface OverlapWords {
  part(p: TailPart): string;
  stage(stageKey: string): string;
  signed(ms: number): string;
}

/**
 * What the parts apart are, in one sentence without its end (each view says what it does with
 * them); null when none is apart.
 */
export function overlapText(apart: readonly ApartPart[], words: OverlapWords): string | null {
  const clauses: string[] = [];
  const waits = apart.filter((a) => a.because === 'inputWait').map((a) => a.part);
  const named = waits.map((p) => `${words.part(p)} (${words.signed(p.excessMs)})`);
  // A queued time the log does not split holds the input wait and the wait for a slot: not all of it is the first.
  const unsplit = waits.some((p) => p.phase === 'queued') ? `; ${QUEUED_HOLDS_WAIT}` : '';
  if (named.length === 1)
    clauses.push(
      `${named[0]} ${waits[0]?.phase === 'queued' ? 'holds' : 'is'} the wait for its input from the stages upstream: it runs while their parts do, the same time seen from downstream${unsplit}`,
    );
  else if (named.length > 1)
    clauses.push(
      `${named.slice(0, -1).join(', ')} and ${named.at(-1)} are each a stage's wait for its input from the stages upstream: each runs while their parts do, the same time seen from downstream${unsplit}`,
    );
  const stages = new Map<string, TailPart[]>();
  for (const { part, because, ofMs } of apart) {
    if (because !== 'alongside') continue;
    if (ofMs !== undefined) {
      clauses.push(
        `${words.stage(part.stageKey ?? '?')} ran alongside the stages upstream (async chunk feeds it as they produce) and went on after them: ${words.signed(part.excessMs)} of ${words.part(part)} (${words.signed(ofMs)} in all) lies within their time, as much as the parts upstream add (the same time seen from downstream), the rest is its own`,
      );
      continue;
    }
    const key = part.stageKey ?? '?';
    stages.set(key, [...(stages.get(key) ?? []), part]);
  }
  for (const [stageKey, parts] of stages) {
    const sum = parts.reduce((a, p) => a + p.excessMs, 0);
    const one = parts.length === 1;
    clauses.push(
      `${words.stage(stageKey)} ran alongside the stages upstream (async chunk feeds it as they produce), so its ${one ? 'part' : `${parts.length} parts`} (${words.signed(sum)}${one ? '' : ' together'}) ${one ? 'lies' : 'lie'} within their time, the same time seen from downstream`,
    );
  }
  return clauses.length === 0 ? null : clauses.join('; ');
}
