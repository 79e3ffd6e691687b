// Which stage leads the p99 tail, for the hint after its `stage_id`: the stage of the part
// with the largest mean excess over its median (within each tail request), the parts behind an
// overlap left out as the views leave them out (a codec waiting for a slow talker, or running
// alongside it under async chunk, does not lead).
// Hand-offs and preprocess belong to no stage's hint; a tail where nothing stands out leads nowhere.
import { phaseWord, targetLabel } from '../explain/explainTable';
import { additiveTail } from '../explain/overlapApart';
import type { PartPhase, TailAttribution } from '../explain/types';
import type { TailLead } from './liveNumbers';

/** The phases of a stage's own time: those can lead its hint. */
const STAGE_PHASES: ReadonlySet<PartPhase> = new Set([
  'inputWait',
  'readyQueued',
  'queued',
  'prefill',
  'decode',
  'genOther',
]);

/** Below this share a part does not "lead" (a flat tail's noise). */
const MIN_SHARE = 0.2;

export function tailLeadOf(
  tail: TailAttribution | null,
  oneOutput: ReadonlySet<string>,
  roles: Readonly<Record<string, string>> = {},
): TailLead | null {
  const top = tail === null ? undefined : additiveTail(tail).parts[0];
  if (
    tail === null ||
    top === undefined ||
    top.stageId === null ||
    top.stageKey === null ||
    top.share === null ||
    top.share < MIN_SHARE ||
    !(top.excessMs > 0)
  )
    return null;
  if (!STAGE_PHASES.has(top.phase)) return null;
  // Named as explain and the views name it (an unsplit gen time, a one-output prefill+decode).
  const part = phaseWord(top, [...oneOutput]);
  return {
    stageId: top.stageId,
    part,
    share: top.share,
    target: targetLabel(tail.target, roles),
    tailRequests: tail.requestCount,
  };
}
