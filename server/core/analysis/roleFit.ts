// Stage roles come from a path (core/stageRoles.ts): a log named for one model, or read with
// another model's deploy config, would name its stages wrongly ("1 · diffusion" on a stage
// that printed audio). The stages' own numbers overrule the name: roles are kept only where
// every stage seen has one and none contradicts what its stage printed. The evidence is
// gathered as requests arrive (a few field reads per stage), so the CLI, the findings and the
// editor's session names all judge by the same requests.
import { outputsAudio, stageRolesOfLog } from '../stageRoles';
import type { FieldMap } from '../values';
import type { AnalyzedRequest, StageKind } from './types';

/** Fields only a diffusion stage prints. */
const DIFFUSION_FIELDS = ['num_inference_steps', 'image_pixels', 'denoise_step_latency_ms'];

const printedPositive = (fields: FieldMap, name: string): boolean => {
  const cell = fields[name];
  return cell !== undefined && cell.state === 'measured' && cell.value > 0;
};

/** What one stage id printed over the requests so far. */
export interface StageOutput {
  readonly stageId: number;
  audio: boolean;
  diffusion: boolean;
  prefill: boolean;
  /** Its kind as the analysis judged it (stageKind.ts) in some request: an LLM stage, a diffusion stage. */
  ranAsLlm: boolean;
  ranAsDiffusion: boolean;
  /** The name the server printed for it (a `0:thinker` column's `stage_name`, an [OmniTiming] `0:thinker=`); null: none, or two. */
  label: string | null;
  labelConflict: boolean;
}

/**
 * A printed stage name that can be a role: a word (no markup, nothing to escape) that is not the
 * fallback name a stage without one gets (`stage_0`).
 */
const ROLE_LABEL = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const FALLBACK_LABEL = /^stage[_-]?\d+$/i;

function roleLabel(text: string | undefined): string | null {
  return text !== undefined && ROLE_LABEL.test(text) && !FALLBACK_LABEL.test(text) ? text : null;
}

function noteLabel(seen: StageOutput, label: string | null): void {
  if (label === null || seen.labelConflict || seen.label === label) return;
  if (seen.label === null) seen.label = label;
  else {
    seen.label = null;
    seen.labelConflict = true;
  }
}

/** Per stage id: whether it printed audio, diffusion fields, a measured prefill. */
export class StageOutputEvidence {
  private readonly byId = new Map<number, StageOutput>();

  add(request: AnalyzedRequest): void {
    for (const stage of request.stages) {
      if (stage.stageId === null) continue;
      let seen = this.byId.get(stage.stageId);
      if (seen === undefined)
        this.byId.set(
          stage.stageId,
          (seen = {
            stageId: stage.stageId,
            audio: false,
            diffusion: false,
            prefill: false,
            ranAsLlm: false,
            ranAsDiffusion: false,
            label: null,
            labelConflict: false,
          }),
        );
      const name = stage.fields['stage_name'];
      noteLabel(seen, roleLabel(name?.state === 'text' ? name.value : undefined));
      if (!seen.audio && printedPositive(stage.fields, 'audio_duration_s')) seen.audio = true;
      if (!seen.diffusion && DIFFUSION_FIELDS.some((f) => printedPositive(stage.fields, f))) seen.diffusion = true;
      if (!seen.prefill && stage.split.states.prefillMs === 'measured') seen.prefill = true;
      if (stage.kind === 'diffusion') seen.ranAsDiffusion = true;
      else seen.ranAsLlm = true;
    }
    if (request.timing !== null)
      for (const s of request.timing.stages) {
        const seen = this.byId.get(s.stageId);
        if (seen !== undefined) noteLabel(seen, roleLabel(s.label ?? undefined));
      }
  }

  stages(): readonly StageOutput[] {
    return [...this.byId.values()];
  }
}

/**
 * Stage id -> the name the server printed for it (`0:thinker` columns, vllm-omni#3069's branch),
 * for the stages that printed one and only one; {} unless every stage did.
 */
export function labelledRoles(stages: readonly StageOutput[]): Readonly<Record<string, string>> {
  const roles: Record<string, string> = {};
  for (const s of stages) {
    if (s.label === null) return {};
    roles[String(s.stageId)] = s.label;
  }
  return roles;
}

/** Stage id -> kind, for the stages that ran as one kind in every request. */
export function stageKindsOf(stages: readonly StageOutput[]): Readonly<Record<string, StageKind>> {
  const kinds: Record<string, StageKind> = {};
  for (const s of stages)
    if (s.ranAsLlm !== s.ranAsDiffusion) kinds[String(s.stageId)] = s.ranAsDiffusion ? 'diffusion' : 'llm';
  return kinds;
}

/** Why `roles` do not fit these stages, or null when they do (or when no stage is known yet). */
export function roleMisfit(roles: Readonly<Record<string, string>>, stages: readonly StageOutput[]): string | null {
  for (const s of stages) {
    const role = roles[String(s.stageId)];
    if (role === undefined) return `stage ${s.stageId} has no role in a ${Object.values(roles).join(' → ')} pipeline`;
    if (s.audio && !outputsAudio(role))
      return `stage ${s.stageId} printed audio, which a ${role} stage does not output`;
    if (s.diffusion && role !== 'diffusion')
      return `stage ${s.stageId} printed diffusion fields, which a ${role} stage does not`;
    if (!s.diffusion && role === 'diffusion' && s.prefill)
      return `stage ${s.stageId} printed a prefill, which a diffusion stage does not`;
  }
  return null;
}

/** `roles`, or {} (stages go by id) when the stages' own numbers contradict them. */
export function rolesThatFit(
  roles: Readonly<Record<string, string>>,
  stages: readonly StageOutput[],
): Readonly<Record<string, string>> {
  if (Object.keys(roles).length === 0) return roles;
  return roleMisfit(roles, stages) === null ? roles : {};
}

/** A log's stage roles as judged, and whether they are the names its server printed for its stages. */
export interface JudgedStageRoles {
  readonly roles: Readonly<Record<string, string>>;
  readonly fromLabels: boolean;
}

/**
 * A log's stage roles, as a session, analyze, explain and compare all judge them: the names the
 * server printed for its stages (`0:thinker` columns, which no file name outranks), else those of
 * the pipeline the model it serves names, else `named()` (a saved session's recorded roles, the
 * names of its files); {} where the stages' own output contradicts them.
 */
export function judgeStageRoles(
  servedModel: string | null,
  named: () => Readonly<Record<string, string>>,
  stages: readonly StageOutput[],
): JudgedStageRoles {
  const labelled = labelledRoles(stages);
  const printed = Object.keys(labelled).length > 0;
  const roles = rolesThatFit(printed ? labelled : stageRolesOfLog(servedModel, named), stages);
  return { roles, fromLabels: printed && Object.keys(roles).length > 0 };
}
