// The pipeline each server boot of one log served, and the finding when boots served different
// ones. Boots appended to one file (bootMarkers.ts) are usually the same server restarted; when
// they are not (a Qwen3-TTS talker → codec, then a Qwen3-Omni thinker → talker → code2wav), the
// per-stage rows pool "stage 1" of both, and its percentiles describe neither.
// A boot's shape is what its requests printed: the stage ids, each stage's kind (stageKind.ts)
// and output unit (`output_unit_type`, else audio or image printed), and the model the boot's
// start-up lines name. Only what two boots both say is compared: a model named by one boot only,
// or a stage that printed no unit in one boot, is no difference; a stage's units differ when the
// two boots share none (a boot that served several kinds of request shares them).
import { andList } from '../andList';
import { countOf } from '../numberText';
import type { FieldMap } from '../values';
import type { AnalyzedRequest, Finding, StageKind } from './types';
import type { ViewBoots } from './bootWords';

/** What one stage printed in one boot. */
export interface BootStageShape {
  readonly stageId: number;
  /** Its kind in every request of the boot; null when it ran as both. */
  readonly kind: StageKind | null;
  /** Its output units as printed (`output_unit_type`: text, latent, audio, image), else audio or image seen; []: none said. */
  readonly units: readonly string[];
}

/** The pipeline one boot served, as its requests and start-up lines say it. */
export interface BootPipeline {
  /** The analysis's boot number (0: requests before the first boot marker); a server's ordinal when `server` is set. */
  readonly boot: number;
  /** The server of a merged log this pipeline is of (all its boots; serverPipelines.ts); absent: a boot's. */
  readonly server?: string;
  readonly requests: number;
  /** The model its start-up lines name (non-default args); null when they name none. */
  readonly model: string | null;
  readonly stages: readonly BootStageShape[];
}

interface StageEvidence {
  llm: boolean;
  diffusion: boolean;
  readonly units: Set<string>;
}

interface BootEvidence {
  requests: number;
  readonly stages: Map<number, StageEvidence>;
}

const textOf = (fields: FieldMap, name: string): string | null => {
  const cell = fields[name];
  return cell !== undefined && cell.state === 'text' && cell.value !== '' ? cell.value : null;
};

const positive = (fields: FieldMap, name: string): boolean => {
  const cell = fields[name];
  return cell !== undefined && cell.state === 'measured' && cell.value > 0;
};

/** A stage's output unit in one request: as printed, else what its fields show; null when neither says. */
function unitOf(fields: FieldMap): string | null {
  const printed = textOf(fields, 'output_unit_type');
  if (printed !== null) return printed.toLowerCase();
  if (positive(fields, 'audio_duration_s') || positive(fields, 'audio_generated_frames')) return 'audio';
  if (positive(fields, 'image_pixels')) return 'image';
  return null;
}

/** The model named for `boot` (`models`: the first named while each boot number was current); null when none was. */
export function modelOfBoot(
  models: ReadonlyMap<number, string>,
  boot: number,
  bootZeroHasRequests: boolean,
): string | null {
  // A model line printed before the log's first boot marker belongs to the boot that marker starts.
  return models.get(boot) ?? (boot === 1 && !bootZeroHasRequests ? models.get(0) : undefined) ?? null;
}

/** Per boot: the requests' stages and the model named at start-up, gathered as requests arrive. */
export class BootPipelineEvidence {
  private readonly boots = new Map<number, BootEvidence>();
  private readonly models = new Map<number, string>();

  /** The model a start-up line named while `boot` was the current boot number (its first). */
  noteModel(boot: number, model: string): void {
    if (!this.models.has(boot)) this.models.set(boot, model);
  }

  /** `key`: the boot the request counts in (a server's ordinal, for the evidence per server). */
  add(request: AnalyzedRequest, key = request.boot): void {
    let boot = this.boots.get(key);
    if (boot === undefined) this.boots.set(key, (boot = { requests: 0, stages: new Map() }));
    boot.requests += 1;
    for (const stage of request.stages) {
      if (stage.stageId === null) continue;
      let seen = boot.stages.get(stage.stageId);
      if (seen === undefined)
        boot.stages.set(stage.stageId, (seen = { llm: false, diffusion: false, units: new Set() }));
      if (stage.kind === 'diffusion') seen.diffusion = true;
      else seen.llm = true;
      const unit = unitOf(stage.fields);
      if (unit !== null) seen.units.add(unit);
    }
  }

  /** The same models with no request yet: for the pipelines of a subset of the requests (a window of a session's). */
  modelsOnly(): BootPipelineEvidence {
    const copy = new BootPipelineEvidence();
    for (const [boot, model] of this.models) copy.noteModel(boot, model);
    return copy;
  }

  /** The boots that gave requests, in order. */
  pipelines(): BootPipeline[] {
    const out: BootPipeline[] = [];
    for (const [boot, evidence] of [...this.boots].sort((a, b) => a[0] - b[0])) {
      out.push({
        boot,
        requests: evidence.requests,
        model: modelOfBoot(this.models, boot, this.boots.has(0)),
        stages: [...evidence.stages]
          .sort((a, b) => a[0] - b[0])
          .map(([stageId, s]) => ({
            stageId,
            kind: s.llm === s.diffusion ? null : s.diffusion ? 'diffusion' : 'llm',
            units: [...s.units].sort(),
          })),
      });
    }
    return out;
  }
}

const stageList = (p: BootPipeline): string => andList(p.stages.map((s) => s.stageId));

/** A pipeline's name in a sentence: `boot 2`, or `server omni-1` for a server's. */
const nameOf = (p: BootPipeline): string => (p.server === undefined ? `boot ${p.boot}` : `server ${p.server}`);

/** How boot `b` differs from boot `a` (or server from server), in words; [] when nothing both say differs. */
export function pipelineDifferences(a: BootPipeline, b: BootPipeline): string[] {
  const models = a.model !== null && b.model !== null && a.model !== b.model;
  return [...(models ? [`${nameOf(a)} serves ${a.model}, ${nameOf(b)} ${b.model}`] : []), ...stageDifferences(a, b)];
}

/** How boot `b`'s stages differ from boot `a`'s, in words. */
function stageDifferences(a: BootPipeline, b: BootPipeline): string[] {
  const out: string[] = [];
  if (stageList(a) !== stageList(b))
    out.push(`${nameOf(a)} has stages ${stageList(a)}, ${nameOf(b)} stages ${stageList(b)}`);
  for (const sa of a.stages) {
    const sb = b.stages.find((s) => s.stageId === sa.stageId);
    if (sb === undefined) continue;
    if (sa.kind !== null && sb.kind !== null && sa.kind !== sb.kind)
      out.push(`stage ${sa.stageId} is ${sa.kind} in ${nameOf(a)}, ${sb.kind} in ${nameOf(b)}`);
    // Units differ when the boots share none: a boot that mixes kinds of request within itself is not this finding's case.
    else if (sa.units.length > 0 && sb.units.length > 0 && !sa.units.some((u) => sb.units.includes(u)))
      out.push(
        `stage ${sa.stageId} outputs ${andList(sa.units)} in ${nameOf(a)}, ${andList(sb.units)} in ${nameOf(b)}`,
      );
  }
  return out;
}

/** Boots of one pipeline in words: "boots 1 and 3 (6 requests, Qwen/Qwen3-TTS): stages 0 llm → latent, 1 llm → audio". */
export function pipelineText(group: readonly BootPipeline[]): string {
  const p = group[0] as BootPipeline;
  const stages = p.stages.map(
    (s) => `${s.stageId} ${s.kind ?? 'llm and diffusion'}${s.units.length === 0 ? '' : ` → ${andList(s.units)}`}`,
  );
  const servers = p.server !== undefined;
  const numbers = group.map((g) =>
    g.server !== undefined ? g.server : g.boot === 0 ? '0 (before the first server start)' : String(g.boot),
  );
  const requests = group.reduce((sum, g) => sum + g.requests, 0);
  return `${servers ? 'server' : 'boot'}${group.length === 1 ? '' : 's'} ${andList(numbers)} (${countOf(requests, 'request')}${p.model === null ? '' : `, ${p.model}`}): stage${stages.length === 1 ? '' : 's'} ${stages.join(', ')}`;
}

/**
 * The boots grouped by pipeline: each boot joins the first group whose first boot it does not
 * differ from. One group: every boot served the same pipeline (as far as they say).
 */
export function pipelineGroups(pipelines: readonly BootPipeline[]): BootPipeline[][] {
  const groups: BootPipeline[][] = [];
  for (const p of pipelines) {
    const group = groups.find((g) => pipelineDifferences(g[0] as BootPipeline, p).length === 0);
    if (group === undefined) groups.push([p]);
    else group.push(p);
  }
  return groups;
}

/** What a finding of pipelines that differ says of its parts: boots of one log, or servers of a merged one. */
export interface PipelinesDifferWords {
  readonly code: 'boots-differ-in-pipeline' | 'servers-differ-in-pipeline';
  /** "The server boots in this log". */
  readonly subject: string;
  /** "boot": what the per-stage rows pool, and what to read one at a time. */
  readonly part: 'boot' | 'server';
  /** The `--boot`/`--server` value that reads a pipeline's first part, as typed in a shell. */
  readonly option: (head: BootPipeline) => string;
}

/** The warning that the parts of a log served different pipelines, or null when they served one. */
export function pipelinesDifferFinding(
  pipelines: readonly BootPipeline[],
  words: PipelinesDifferWords,
): Finding | null {
  const groups = pipelineGroups(pipelines);
  if (groups.length < 2) return null;
  const heads = groups.map((g) => g[0] as BootPipeline);
  const first = heads[0] as BootPipeline;
  // The models are in each pipeline's words already.
  const differences = heads.slice(1).flatMap((h) => stageDifferences(first, h));
  const { part } = words;
  return {
    code: words.code,
    severity: 'warning',
    stageId: null,
    // About the per-stage rows, not some requests: no request list to open (each pipeline says its count).
    requestIds: [],
    requestCount: 0,
    message:
      `${words.subject} served ${groups.length} different pipelines: ${groups.map(pipelineText).join('; ')}. ` +
      (differences.length === 0
        ? 'Their stages look alike, their models differ. '
        : `They differ: ${differences.join('; ')}. `) +
      `The per-stage rows pool each stage id over every ${part}, so a stage's percentiles mix different stages (and models) and describe none of them. ` +
      `Read one ${part} at a time: stage-lens analyze --${part} ${andList(heads.map(words.option)).replace(/ and (?=\S+$)/, ' or ')} (explain takes --${part} too).`,
  };
}

/** The `boots-differ-in-pipeline` warning, or null when every boot served the same pipeline. */
export function bootsDifferFinding(pipelines: readonly BootPipeline[]): Finding | null {
  return pipelinesDifferFinding(pipelines, {
    code: 'boots-differ-in-pipeline',
    subject: 'The server boots in this log',
    part: 'boot',
    option: (head) => String(head.boot),
  });
}

/** Each boot with requests, its count and model: a boot to pick (a view's, a compare's). */
export function bootChoices(pipelines: readonly BootPipeline[]): ViewBoots['boots'][number][] {
  return pipelines.map(({ boot, requests, model }) => ({ boot, requests, model }));
}

/** The boots a view offers (two or more with requests; null below), their pipelines in words, and the boot `selected`. */
export function viewBootsOf(pipelines: readonly BootPipeline[], selected: number | null): ViewBoots | null {
  if (pipelines.length < 2) return null;
  return {
    boots: bootChoices(pipelines),
    pipelines: pipelineGroups(pipelines).map(pipelineText),
    selected,
  };
}
