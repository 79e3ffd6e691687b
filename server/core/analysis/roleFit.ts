// Stage roles come from a path (core/stageRoles.ts): a log named for one model, or read with
// another model's deploy config, would name its stages wrongly ("1 · diffusion" on a stage
// that printed audio). The stages' own numbers overrule the name: roles are kept only where
// every stage seen has one and none contradicts what its stage printed.
import { outputsAudio } from '../stageRoles';
import type { StageSummary } from './types';

/** Fields only a diffusion stage prints. */
const DIFFUSION_FIELDS = ['num_inference_steps', 'image_pixels', 'denoise_step_latency_ms'];

/** The fields a reader that summarizes few must summarize for roleMisfit to see what each stage output. */
export const ROLE_EVIDENCE_FIELDS: readonly string[] = ['audio_duration_s', 'num_inference_steps'];

const printedPositive = (s: StageSummary, field: string): boolean => (s.fields[field]?.max ?? 0) > 0;

/** Why `roles` do not fit these stages, or null when they do (or when no stage is known yet). */
export function roleMisfit(roles: Readonly<Record<string, string>>, stages: readonly StageSummary[]): string | null {
  for (const s of stages) {
    if (s.stageId === null) continue;
    const role = roles[String(s.stageId)];
    if (role === undefined) return `stage ${s.stageId} has no role in a ${Object.values(roles).join(' → ')} pipeline`;
    if (printedPositive(s, 'audio_duration_s') && !outputsAudio(role))
      return `stage ${s.stageId} printed audio, which a ${role} stage does not output`;
    const diffusion = DIFFUSION_FIELDS.some((f) => printedPositive(s, f));
    if (diffusion !== (role === 'diffusion') && (diffusion || s.split.prefillMs !== undefined))
      return diffusion
        ? `stage ${s.stageId} printed diffusion fields, which a ${role} stage does not`
        : `stage ${s.stageId} printed a prefill, which a diffusion stage does not`;
  }
  return null;
}

/** `roles`, or {} (stages go by id) when the stages' own numbers contradict them. */
export function rolesThatFit(
  roles: Readonly<Record<string, string>>,
  stages: readonly StageSummary[],
): Readonly<Record<string, string>> {
  if (Object.keys(roles).length === 0) return roles;
  return roleMisfit(roles, stages) === null ? roles : {};
}
