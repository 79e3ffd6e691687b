// Where a first-output target stops depending on a stage upstream of its own. A stage with
// an input gate waits for its input (input wait), then for a slot (ready queued), then
// prefills and makes its first output. Once its input was ready, that first output waits on
// the stage itself: upstream work after that instant (under async chunk the talker goes on
// producing while the codec waits for a slot) runs alongside and is not waited for. So a
// stage's parts count only up to the instant the next stage on the way to the target had
// its input (along thinker -> talker -> code2wav: the thinker up to the talker's, the talker
// up to the code2wav's). Only where that next stage's first output is its own: its input
// wait, ready queued and prefill measured and ending at its first output (the stage anchored
// on it, stagePlacement.ts). A first output that came before (the talker's first audio frame
// passed through the codec) is upstream's: upstream parts then count up to the target.
import type { Column, ExplainIndex } from './explainIndex';
import { parseTarget, stageTargetName, type Target } from './targets';

/** The printed values (3 decimals) of four fields and a clock sum agree this closely when anchored. */
const OWN_OUTPUT_SLACK_MS = 0.5;

/** A stage the way to the target passes: its id and, per request, its input-ready instant (NaN: none usable). */
interface Gate {
  readonly stageId: number;
  readonly readyAt: Float64Array;
}

/**
 * Per stage upstream of the target's, the instant up to which its parts count in each
 * request (see above); the target's value where no later stage's input-ready instant applies.
 * Empty unless the target is a first output.
 */
export function upstreamLimits(
  index: ExplainIndex,
  target: Target,
  rows: Int32Array,
  targetValues: Float64Array,
): (stageId: number | null) => Float64Array | null {
  const none = (): null => null;
  if (target.kind !== 'firstOutput' || target.stageKey === null || target.stageId === null) return none;
  const targetId = target.stageId;
  const gates: Gate[] = [];
  for (const s of index.stages()) {
    if (s.stageId === null || s.stageId <= 0 || s.stageId > targetId) continue;
    const isTarget = s.stageKey === target.stageKey;
    // An earlier stage's own segments are not on the way; a later segment of the target's stage is not either.
    if (!isTarget && (s.stageId === targetId || s.stageKey !== String(s.stageId))) continue;
    const firstOutput = isTarget ? targetValues : readAt(index.target(firstOutputOf(s.stageKey)), rows);
    const readyAt = inputReadyAt(index, s.stageKey, rows, firstOutput);
    if (readyAt !== null) gates.push({ stageId: s.stageId, readyAt });
  }
  if (gates.length === 0) return none;
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

/** In how many rows a stage upstream of the target counts up to an input-ready instant before the target's value. */
export function rowsCutUpstream(
  index: ExplainIndex,
  target: Target,
  rows: Int32Array,
  targetValues: Float64Array,
): number {
  if (target.stageId === null || target.stageId <= 0) return 0;
  const limits = upstreamLimits(index, target, rows, targetValues)(target.stageId - 1);
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
