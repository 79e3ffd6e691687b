// Which number is a session's headline latency, chosen once for the side panel's trend and the
// status bar (each writes it in its own words): the time to first output of the stage explain
// takes for its main target (headlineStage.ts), else end to end (explain's next target), else
// the last stage's gen time, else the [Overall Summary] tables' wall time. DOM-free.
import type { Distribution, SummaryResult } from '../../server/protocol';
import { headlineStage } from '../../server/shared';
import { FIELD_FIRST_OUTPUT, FIELD_GEN_TIME } from './labels';

export type HeadlineFigure =
  | { readonly kind: 'firstOutput' | 'genTime'; readonly stageKey: string; readonly ms: Distribution }
  | { readonly kind: 'e2e' | 'overallWall'; readonly ms: Distribution };

export function headlineFigure(
  summary: Pick<SummaryResult, 'stages' | 'endToEnd' | 'overallSummaries'>,
): HeadlineFigure | null {
  const first = headlineStage(summary.stages);
  const firstOutput = first?.fields[FIELD_FIRST_OUTPUT];
  if (first !== null && firstOutput !== undefined)
    return { kind: 'firstOutput', stageKey: first.stageKey, ms: firstOutput };
  // An INFO-level log ([OmniTiming] only), the dicts of the format before February 2026.
  const e2e = summary.endToEnd?.ms;
  if (e2e !== undefined && e2e.count > 0) return { kind: 'e2e', ms: e2e };
  for (let i = summary.stages.length - 1; i >= 0; i--) {
    const stage = summary.stages[i];
    const gen = stage?.replicaId === null ? stage.fields[FIELD_GEN_TIME] : undefined;
    if (stage !== undefined && gen !== undefined && gen.count > 0)
      return { kind: 'genTime', stageKey: stage.stageKey, ms: gen };
  }
  // Only [Overall Summary] tables: their wall time, one value per table.
  const wall = summary.stages.length === 0 ? summary.overallSummaries?.fields['e2e_wall_time_ms'] : undefined;
  return wall !== undefined && wall.count > 0 ? { kind: 'overallWall', ms: wall } : null;
}
