// A run at INFO level has only [OmniTiming] figures (seconds with 2 decimals: a 10 ms step)
// where a run at DEBUG level has its stats tables' (ms with 3 decimals); so has a run whose log
// has DEBUG lines and no stats table (its stats logger above DEBUG, or the tables cut out: not
// called INFO level, tablesMissing.ts says why). Compared, their
// difference mixes the two precisions: said once per run whose figures are the coarse ones, with
// the metrics concerned and the step, so a difference of a few ms is not read as a change.
import { countOf } from '../numberText';
import { andList } from '../andList';
import { METRIC_INFO, OMNI_TIMING_STEP_MS } from './metrics';
import { runDataName, scopeLabel } from './format';
import type { MetricId, RunData, RunSamples } from './types';

type Side = 'baseline' | 'candidate';

interface Coarse {
  readonly labels: string[];
  coarse: number;
  values: number;
}

/** The notes (none, one, or one per run where each is coarse somewhere the other is not). */
export function precisionNotes(
  baseline: RunData,
  candidate: RunData,
  roles: Readonly<Record<string, string>>,
): string[] {
  if (baseline.samples === null || candidate.samples === null) return [];
  const runs: Record<Side, RunData> = { baseline, candidate };
  const notes: string[] = [];
  for (const [side, other] of [
    ['baseline', 'candidate'],
    ['candidate', 'baseline'],
  ] as const) {
    const found = coarseAgainst(runs[side].samples as RunSamples, runs[other].samples as RunSamples, roles);
    if (found === null) continue;
    const which =
      found.coarse === found.values ? 'every value' : `${found.coarse} of their ${countOf(found.values, 'value')}`;
    // The sentence already says [OmniTiming]: a run with DEBUG lines gets no level named.
    const level = runs[side].samples?.debugLines === true ? '' : 'INFO level: ';
    notes.push(
      `Different precision: the ${side} (${runDataName(runs[side])}) has ${andList(found.labels)} from [OmniTiming] lines ` +
        `(${which}; ${level}seconds with 2 decimals, a ${OMNI_TIMING_STEP_MS} ms step), the ${other} (${runDataName(runs[other])}) ` +
        `from its stats tables (ms with 3 decimals). A difference under ${OMNI_TIMING_STEP_MS} ms in ${found.labels.length === 1 ? 'it' : 'them'} ` +
        `is within the ${side}'s rounding, not a change.`,
    );
  }
  return notes;
}

/** The metrics `run` has [OmniTiming] figures of where `other` has finer ones; null when none. */
function coarseAgainst(run: RunSamples, other: RunSamples, roles: Readonly<Record<string, string>>): Coarse | null {
  const found: Coarse = { labels: [], coarse: 0, values: 0 };
  for (const scope of run.scopes) {
    const theirs = other.scopes.find((s) => s.scope === scope.scope);
    if (theirs === undefined) continue;
    for (const metric of Object.keys(scope.metrics) as MetricId[]) {
      const samples = scope.metrics[metric];
      const coarse = samples?.coarse ?? 0;
      const against = theirs.metrics[metric];
      if (samples === undefined || coarse === 0 || against === undefined) continue;
      if (against.values.length - (against.coarse ?? 0) === 0) continue;
      found.labels.push(`${scopeLabel(scope.scope, roles)} ${METRIC_INFO[metric].label}`);
      found.coarse += coarse;
      found.values += samples.values.length;
    }
  }
  return found.labels.length === 0 ? null : found;
}
