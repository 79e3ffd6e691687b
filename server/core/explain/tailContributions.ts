// What each part of a request's breakdown contributes to a target, for a list of requests:
// the part's ms, or under a first-output target the share of its interval before that
// first output (its start on the request's clock is its stage's start plus the phases of
// that stage before it); a part of a stage upstream of the target's counts only up to the
// instant the next stage on the way had its input, where that stage's first output is its
// own (upstreamCut.ts). A request's contributions depend only on its own numbers and on
// which parts precede each other, so the same values come out whether the requests are
// read all at once (a query over a scope) or one by one as they arrive (tailState.ts).
import type { ColumnReads } from './columnReads';
import type { ExplainIndex, PartColumns, PartMeta } from './explainIndex';
import { contribution, partCounts, type Target } from './targets';
import { upstreamLimits } from './upstreamCut';

/**
 * Calls `visit` for each part that makes up the target, in the index's part order, with
 * the part's contribution in each of `rows` (NaN: not measured there) and its own time there
 * (the same array unless the target clips parts). `targetValues[k]` is the target's value in
 * rows[k]. The arrays passed to `visit` are reused for the next part, or shared through
 * `reads` (read through it when given): `visit` must not write to them.
 */
export function forEachContribution(
  index: ExplainIndex,
  target: Target,
  rows: Int32Array,
  targetValues: Float64Array,
  visit: (part: PartColumns, contributions: Float64Array, ms: Float64Array) => void,
  reads?: ColumnReads,
): void {
  const n = rows.length;
  const own = new Float64Array(n);
  const contributions = new Float64Array(n);
  // Only a first-output target clips parts at its instant; the others take them whole.
  const clipped = target.kind === 'firstOutput';
  // Where the next phase of the current stage starts, per request (clipped targets only).
  const clock = new Float64Array(clipped ? n : 0);
  let clockStage: string | null = null;
  const stageStarts = clipped ? new Map(index.stages().map((s) => [s.stageKey, s.start])) : null;
  const upstream = clipped ? upstreamLimits(index, target, rows, targetValues) : null;
  for (const part of index.parts()) {
    const m = part.meta;
    if (!partCounts(m, target)) continue;
    let ms: Float64Array = own;
    if (reads === undefined) part.ms.read(rows, own);
    else ms = reads.read(part.ms, rows);
    if (!clipped) {
      visit(part, ms, ms);
      continue;
    }
    const inStage =
      m.phase !== 'preprocess' && m.phase !== 'transfer' && m.phase !== 'finalOutput' && m.stageKey !== null;
    if (inStage && clockStage !== m.stageKey) {
      clockStage = m.stageKey;
      const start = stageStarts?.get(m.stageKey as string);
      if (start === undefined) clock.fill(Number.NaN);
      else start.read(rows, clock);
    }
    const ownStage = m.stageKey !== null && m.stageKey === target.stageKey;
    const limits = (inStage ? upstream?.(m.stageId) : null) ?? targetValues;
    clipPart(ms, clock, limits, contributions, n, m.phase === 'preprocess', inStage, target, ownStage);
    if (ownStage && m.phase === 'genOther') unknownWhereUnsplit(index, m.stageKey as string, rows, contributions);
    visit(part, contributions, ms);
  }
}

/**
 * One part's contributions to a first-output target, advancing the stage clock. A loop of
 * its own: called for every part of every target, it is compiled once for all of them,
 * where inside the loop over parts each new kind of part sent the compiled code back.
 */
function clipPart(
  ms: Float64Array,
  clock: Float64Array,
  limits: Float64Array,
  out: Float64Array,
  n: number,
  preprocess: boolean,
  inStage: boolean,
  target: Target,
  ownStage: boolean,
): void {
  for (let k = 0; k < n; k++) {
    const v = ms[k];
    let c = Number.NaN;
    if (!Number.isNaN(v)) {
      const startMs = preprocess ? 0 : inStage && v >= 0 ? clock[k] : Number.NaN;
      c = contribution(v, startMs, target, limits[k], ownStage);
      if (inStage && v >= 0) clock[k] = clock[k] + v;
    }
    out[k] = c;
  }
}

/**
 * A first-output target's own stage, in a request whose gen time the log does not split
 * (prefill or decode not measured): where that time starts before the first output, the first
 * output lies somewhere inside it, and the log does not say where, so how much of it comes
 * before the first output is not known. Where it starts at or after the first output (the
 * output came before the stage was scheduled: the talker's first audio frame passed through
 * the codec), none of it counts: a known 0, kept.
 */
function unknownWhereUnsplit(
  index: ExplainIndex,
  stageKey: string,
  rows: Int32Array,
  contributions: Float64Array,
): void {
  const unsplit = index.unsplitRows(stageKey);
  if (unsplit === undefined) return;
  const flags = new Float64Array(rows.length);
  unsplit.read(rows, flags);
  for (let k = 0; k < rows.length; k++) if (flags[k] === 1 && contributions[k] !== 0) contributions[k] = Number.NaN;
}

/** Whether a part's contribution to the target can be unknown where the part took time (see unknownWhereUnsplit). */
export function contributionCanBeUnknown(index: ExplainIndex, part: PartMeta, target: Target): boolean {
  return (
    target.kind === 'firstOutput' &&
    part.phase === 'genOther' &&
    part.stageKey !== null &&
    part.stageKey === target.stageKey &&
    index.holdsUnmeasuredPhases(part.stageKey)
  );
}

/** Why such a part is not measured, for the views. */
export function unknownContributionReason(stageKey: string): string {
  return `stage ${stageKey}'s first output lies inside its gen time, which the log does not split, so how much of that time comes before the first output is not known`;
}
