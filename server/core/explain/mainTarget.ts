// What a user of a deployment asks about first: the last stage's time to first output
// (time to first audio on Qwen3-TTS and Qwen3-Omni), else end to end.
import type { ExplainIndex } from './explainIndex';
import { parseTarget } from './targets';
import type { TargetName } from './types';

export function mainTargetOf(index: ExplainIndex): TargetName | null {
  const targets = index.targets();
  let best: { name: TargetName; stageId: number; segment: number } | null = null;
  for (const name of targets) {
    const t = parseTarget(name);
    if (t === null || t.kind !== 'firstOutput' || t.stageId === null) continue;
    if (best === null || t.stageId > best.stageId || (t.stageId === best.stageId && t.segment < best.segment))
      best = { name, stageId: t.stageId, segment: t.segment };
  }
  return best?.name ?? (targets.includes('e2e') ? 'e2e' : (targets[0] ?? null));
}
