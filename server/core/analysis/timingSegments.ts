// [OmniTiming] prints one `stages=` item per stage report of the request, so a stage that reports
// twice (a second segment) is printed twice (`1:15.00s,1:15.38s`). The k-th item of a stage id is
// that stage's k-th segment: the column a stats table heads `N_k`.
import type { OmniTimingStage } from '../records';

/** The stage key of a stage's segment, as a stats table's column header names it: `1`, `1_2`. */
export function segmentStageKey(stageId: number, segment: number): string {
  return segment === 1 ? String(stageId) : `${stageId}_${segment}`;
}

/** Each item's segment (1 for a stage id's first item, 2 for its second, ...), in order. */
export function timingSegments(stages: readonly OmniTimingStage[]): number[] {
  const seen = new Map<number, number>();
  const segments: number[] = [];
  for (const s of stages) {
    const segment = (seen.get(s.stageId) ?? 0) + 1;
    seen.set(s.stageId, segment);
    segments.push(segment);
  }
  return segments;
}

/** Each item's stage key (`1`, then `1_2` for a stage printed twice), in order. */
export function timingStageKeys(stages: readonly OmniTimingStage[]): string[] {
  const segments = timingSegments(stages);
  return stages.map((s, i) => segmentStageKey(s.stageId, segments[i] as number));
}

/** The item of a stage id's segment; undefined when the line printed none. */
export function timingStageOf(
  stages: readonly OmniTimingStage[],
  stageId: number | null,
  segment: number,
): OmniTimingStage | undefined {
  let seen = 0;
  for (const s of stages) if (s.stageId === stageId && ++seen === segment) return s;
  return undefined;
}
