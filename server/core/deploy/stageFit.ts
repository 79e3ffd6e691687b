// Whether a session's numbers fit a deploy config: the editor shows each stage's numbers after
// that stage's stage_id, so a session with other stage ids (another pipeline: a three-stage
// Qwen3-Omni run against the two stages of Qwen3-TTS) would put one model's numbers on
// another model's stages.
import * as path from 'node:path';
import type { DeployStageMismatch } from '../../protocol';
import { idList } from './evidenceText';

const stages = (ids: readonly number[]): string => `stage${ids.length === 1 ? '' : 's'} ${idList(ids)}`;

/** The mismatch, or null when the ids are the same (or either side's are not known yet). */
export function deployStageMismatch(
  configPath: string,
  configStageIds: readonly number[],
  session: { readonly title: string; readonly stageIds: readonly number[] },
): DeployStageMismatch | null {
  const config = [...new Set(configStageIds)].sort((a, b) => a - b);
  const measured = [...new Set(session.stageIds)].sort((a, b) => a - b);
  if (config.length === 0 || measured.length === 0 || config.join() === measured.join()) return null;
  return {
    configStageIds: config,
    sessionStageIds: measured,
    message: `${path.basename(configPath)} has ${stages(config)}; the session ${session.title} has ${stages(measured)}, so it did not run this config: its numbers would show on stages that did not produce them.`,
  };
}
