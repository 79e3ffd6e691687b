// Whether a session's numbers fit a deploy config: the editor shows each stage's numbers after
// that stage's stage_id, so a session of another pipeline (a three-stage Qwen3-Omni run against
// the two stages of Qwen3-TTS, or a GLM-Image run whose two stages are not a talker and a
// codec) would put one model's numbers on another model's stages.
import { baseName } from '../baseName';
import { idList } from './evidenceText';
import type { DeployStageMismatch } from './stageMismatch';

const stages = (ids: readonly number[]): string => `stage${ids.length === 1 ? '' : 's'} ${idList(ids)}`;

/** "talker → code2wav"; '' when the pipeline is not known by name. */
const pipeline = (roles: Readonly<Record<string, string>>): string =>
  Object.keys(roles)
    .sort((a, b) => Number(a) - Number(b))
    .map((id) => roles[id])
    .join(' → ');

export interface SessionStages {
  readonly title: string;
  readonly stageIds: readonly number[];
  /** Stage id -> role of the pipeline its source names (core/stageRoles.ts); {} when not known. */
  readonly roles: Readonly<Record<string, string>>;
}

/**
 * The mismatch, or null when the stage ids are the same (or either side's are not known yet)
 * and, where both pipelines are known by name, so are their stages' roles.
 */
export function deployStageMismatch(
  configPath: string,
  configStageIds: readonly number[],
  configRoles: Readonly<Record<string, string>>,
  session: SessionStages,
): DeployStageMismatch | null {
  const name = baseName(configPath);
  const config = [...new Set(configStageIds)].sort((a, b) => a - b);
  const measured = [...new Set(session.stageIds)].sort((a, b) => a - b);
  if (config.length === 0 || measured.length === 0) return null;
  const result = (message: string): DeployStageMismatch => ({
    configStageIds: config,
    sessionStageIds: measured,
    message,
  });
  const consequence = 'so it did not run this config: its numbers would show on stages that did not produce them.';
  if (config.join() !== measured.join())
    return result(
      `${name} has ${stages(config)}; the session ${session.title} has ${stages(measured)}, ${consequence}`,
    );
  const configPipeline = pipeline(configRoles);
  const sessionPipeline = pipeline(session.roles);
  if (configPipeline !== '' && sessionPipeline !== '' && configPipeline !== sessionPipeline)
    return result(
      `${name} is a ${configPipeline} pipeline; the session ${session.title} ran ${sessionPipeline}, ${consequence}`,
    );
  return null;
}
