// What a user of a deployment asks about first: the last stage's time to first output
// (time to first audio on Qwen3-TTS and Qwen3-Omni), else end to end. The stage is the
// side panel's and the status bar's headline stage, by the same rule (analysis/headlineStage.ts).
import { headlineOf } from '../analysis/headlineStage';
import type { ExplainIndex } from './explainIndex';
import { parseTarget, type Target } from './targets';
import type { TargetName } from './types';

export function mainTargetOf(index: ExplainIndex): TargetName | null {
  const targets = index.targets();
  const firstOutputs = targets.map(parseTarget).filter((t): t is Target => t?.kind === 'firstOutput');
  const best = headlineOf(firstOutputs, (t) => t);
  return best?.name ?? (targets.includes('e2e') ? 'e2e' : (targets[0] ?? null));
}
