// Stage roles are not written in a deploy YAML; they come from the model's pipeline
// (docs/formats.md#stage-roles). We know the three pipelines Stage Lens targets; for others, ids only.
import type { SessionInfo } from '../server/protocol';

const PIPELINES: ReadonlyArray<{ readonly match: RegExp; readonly roles: readonly string[] }> = [
  { match: /qwen3[_-]?omni/i, roles: ['thinker', 'talker', 'code2wav'] },
  { match: /qwen3[_-]?tts|cold-start/i, roles: ['talker', 'code2wav'] },
  { match: /glm[_-]?image/i, roles: ['AR', 'diffusion'] },
];

export function stageRoleNames(session: SessionInfo): Readonly<Record<string, string>> {
  const text = `${session.deployConfig ?? ''} ${session.description}`;
  const pipeline = PIPELINES.find((p) => p.match.test(text));
  if (pipeline === undefined) return {};
  return Object.fromEntries(pipeline.roles.map((role, i) => [String(i), role]));
}
