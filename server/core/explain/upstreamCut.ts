// Where a first-output target stops depending on a stage upstream of its own. A stage with
// an input gate waits for its input (input wait), then for a slot (ready queued), then
// prefills and makes its first output. Once its input was ready, that first output waits on
// the stage itself: upstream work after that instant (under async chunk the talker goes on
// producing while the codec waits for a slot) runs alongside and is not waited for. So along
// the whole chain of stages on the way to the target, each stage's parts count only up to the
// instant the stage after it had its input (along thinker -> talker -> code2wav: the thinker
// up to the talker's, the talker up to the code2wav's). Only where that next stage's first
// output is its own: its input wait, ready queued and prefill measured and ending at its first
// output (the stage anchored on it, stagePlacement.ts). A first output that came before (the
// talker's first audio frame passed through the codec) is upstream's: upstream parts then
// count up to the next instant further down the chain, or the target. The cut makes every
// such stage's input wait, where the stage ran alongside its upstream, time the stages above
// it already count: the same time seen from downstream (waitsWithinUpstream).
import type { Column, ExplainIndex } from './explainIndex';
import { parseTarget, stageTargetName, type Target } from './targets';

/** The printed values (3 decimals) of four fields and a clock sum agree this closely when anchored. */
const OWN_OUTPUT_SLACK_MS = 0.5;

/** A stage the way to the target passes: its id and, per request, its input-ready instant (NaN: none usable). */
interface Gate {
  readonly stageId: number;
  readonly stageKey: string;
  readonly readyAt: Float64Array;
}

/** The stages the way to the target passes that have an input-ready instant, upstream first; empty unless the target is a first output. */
function gatesOnTheWay(index: ExplainIndex, target: Target, rows: Int32Array, targetValues: Float64Array): Gate[] {
  const gates: Gate[] = [];
  if (target.kind !== 'firstOutput' || target.stageKey === null || target.stageId === null) return gates;
  const targetId = target.stageId;
  for (const s of index.stages()) {
    if (s.stageId === null || s.stageId <= 0 || s.stageId > targetId) continue;
    const isTarget = s.stageKey === target.stageKey;
    // An earlier stage's own segments are not on the way; a later segment of the target's stage is not either.
    if (!isTarget && (s.stageId === targetId || s.stageKey !== String(s.stageId))) continue;
    const firstOutput = isTarget ? targetValues : readAt(index.target(firstOutputOf(s.stageKey)), rows);
    const readyAt = inputReadyAt(index, s.stageKey, rows, firstOutput);
    if (readyAt !== null) gates.push({ stageId: s.stageId, stageKey: s.stageKey, readyAt });
  }
  return gates.sort((a, b) => a.stageId - b.stageId);
}

/**
 * Per stage upstream of the target's, the instant up to which its parts count in each
 * request: the earliest input-ready instant of the stages after it on the way (the next
 * one's, or where that one's first output was not its own, the one after), else the
 * target's value. Null for the target's stage and where no cut applies.
 */
export function upstreamLimits(
  index: ExplainIndex,
  target: Target,
  rows: Int32Array,
  targetValues: Float64Array,
): (stageId: number | null) => Float64Array | null {
  const gates = gatesOnTheWay(index, target, rows, targetValues);
  if (gates.length === 0 || target.stageId === null) return () => null;
  const targetId = target.stageId;
  const limits = new Map<number, Float64Array>();
  return (stageId) => {
    if (stageId === null || stageId >= targetId) return null;
    let out = limits.get(stageId);
    if (out === undefined) {
      out = targetValues.slice();
      for (const g of gates) {
        if (g.stageId <= stageId) continue;
        for (let k = 0; k < out.length; k++) if (g.readyAt[k] < out[k]) out[k] = g.readyAt[k];
      }
      limits.set(stageId, out);
    }
    return out;
  };
}

/**
 * The stages on the way whose input wait lies within time the stages upstream of them count,
 * in more of `rows` than not: those that ran alongside their upstream (submitted with it,
 * async chunk) and whose input-ready instant cut it. Their input wait is the upstream stages'
 * time seen from downstream, at every step of the chain. A stage that waited after its
 * upstream ended (full payload) waited for the hand-off, not within the upstream's parts.
 */
export function waitsWithinUpstream(
  index: ExplainIndex,
  target: Target,
  rows: Int32Array,
  targetValues: Float64Array,
): string[] {
  const out: string[] = [];
  const alongside = new Float64Array(rows.length);
  for (const g of gatesOnTheWay(index, target, rows, targetValues)) {
    const stage = index.stages().find((s) => s.stageKey === g.stageKey);
    if (stage === undefined) continue;
    stage.alongsideUpstream.read(rows, alongside);
    let within = 0;
    for (let k = 0; k < rows.length; k++) if (alongside[k] === 1 && g.readyAt[k] <= targetValues[k]) within++;
    if (within * 2 > rows.length) out.push(g.stageKey);
  }
  return out;
}

/** In how many rows a stage upstream of the target counts up to an input-ready instant before the target's value. */
export function rowsCutUpstream(
  index: ExplainIndex,
  target: Target,
  rows: Int32Array,
  targetValues: Float64Array,
): number {
  if (target.stageId === null || target.stageId <= 0) return 0;
  // The first stage's limit is the earliest instant of the chain: cut wherever any stage is.
  let first = target.stageId;
  for (const s of index.stages()) if (s.stageId !== null && s.stageId < first) first = s.stageId;
  const limits = upstreamLimits(index, target, rows, targetValues)(first);
  if (limits === null) return 0;
  let n = 0;
  for (let k = 0; k < rows.length; k++) if (limits[k] < targetValues[k]) n++;
  return n;
}

function firstOutputOf(stageKey: string): string {
  return (parseTarget(stageTargetName(stageKey, 'firstOutput')) as Target).name;
}

function readAt(column: Column | undefined, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length).fill(Number.NaN);
  column?.read(rows, out);
  return out;
}

/** The stage's input-ready instant in each request where its first output is its own (NaN elsewhere); null when it has no input split. */
function inputReadyAt(
  index: ExplainIndex,
  stageKey: string,
  rows: Int32Array,
  firstOutput: Float64Array,
): Float64Array | null {
  const own = (phase: string) => index.parts().find((p) => p.meta.stageKey === stageKey && p.meta.phase === phase);
  const inputWait = own('inputWait');
  const readyQueued = own('readyQueued');
  const prefill = own('prefill');
  if (inputWait === undefined || readyQueued === undefined || prefill === undefined) return null;
  const waitMs = readAt(inputWait.ms, rows);
  const readyAt = readAt(readyQueued.start, rows);
  const prefillAt = readAt(prefill.start, rows);
  const prefillMs = readAt(prefill.ms, rows);
  for (let k = 0; k < rows.length; k++) {
    // NaN anywhere (not measured, no place) fails these comparisons: no instant.
    const ownOutputAt = prefillAt[k] + prefillMs[k];
    if (!(waitMs[k] >= 0) || !(Math.abs(ownOutputAt - firstOutput[k]) <= OWN_OUTPUT_SLACK_MS)) readyAt[k] = Number.NaN;
  }
  return readyAt;
}
