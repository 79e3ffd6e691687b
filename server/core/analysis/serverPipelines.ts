// The pipeline each server of a merged log served (kubectl logs --prefix, docker compose logs,
// stern), and the finding when servers served different ones. Replicas of one deployment serve
// one pipeline; a compose file that runs a Qwen3-TTS service beside a Qwen3-Omni one does not,
// and the per-stage rows then pool "stage 0" of a talker and of a thinker, describing neither.
// A server's shape is that of all its requests (its boots together) and the first model its
// start-up lines name, compared as boots are (bootPipelines.ts).
import { andList } from '../andList';
import { shellQuote } from '../shellWords';
import {
  BootPipelineEvidence,
  modelOfBoot,
  pipelineGroups,
  pipelineText,
  stageDifferences,
  type BootPipeline,
} from './bootPipelines';
import type { AnalyzedRequest, Finding } from './types';

/** Per server of a merged log: its requests' stages and the model its start-up lines named. */
export class ServerPipelineEvidence {
  /** Keyed by each server's ordinal. */
  private readonly evidence = new BootPipelineEvidence();
  private readonly ordinals = new Map<string, number>();
  private readonly names: string[] = [];
  /** The model each server's start-up lines named first in each of its boots (each server numbers its own). */
  private readonly bootModels = new Map<string, Map<number, string>>();

  private ordinalOf(server: string): number {
    let ordinal = this.ordinals.get(server);
    if (ordinal === undefined) {
      ordinal = this.names.length;
      this.names.push(server);
      this.ordinals.set(server, ordinal);
    }
    return ordinal;
  }

  /** The model a start-up line of `server` named while `boot` was its current boot (the first of each counts). */
  noteModel(server: string, boot: number, model: string): void {
    this.evidence.noteModel(this.ordinalOf(server), model);
    let models = this.bootModels.get(server);
    if (models === undefined) this.bootModels.set(server, (models = new Map<number, string>()));
    if (!models.has(boot)) models.set(boot, model);
  }

  /** The model `server`'s own start-up lines named for its boot `boot`; null when they named none (another server's is not its). */
  bootModel(server: string, boot: number, bootZeroHasRequests: boolean): string | null {
    const models = this.bootModels.get(server);
    return models === undefined ? null : modelOfBoot(models, boot, bootZeroHasRequests);
  }

  /** A request of no server's tag is none of theirs. */
  add(request: AnalyzedRequest): void {
    if (request.server !== undefined) this.evidence.add(request, this.ordinalOf(request.server));
  }

  /** The same models with no request yet: for the pipelines of a subset of the requests. */
  modelsOnly(): ServerPipelineEvidence {
    const copy = new ServerPipelineEvidence();
    for (const [server, models] of this.bootModels)
      for (const [boot, model] of models) copy.noteModel(server, boot, model);
    return copy;
  }

  /** Each server with requests, by name. */
  pipelines(): BootPipeline[] {
    return this.evidence
      .pipelines()
      .map((p) => ({ ...p, server: this.names[p.boot] as string }))
      .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  }
}

/** The `servers-differ-in-pipeline` warning, or null when every server served the same pipeline (or the log has one). */
export function serversDifferFinding(pipelines: readonly BootPipeline[]): Finding | null {
  const groups = pipelineGroups(pipelines);
  if (groups.length < 2) return null;
  const heads = groups.map((g) => g[0] as BootPipeline);
  const first = heads[0] as BootPipeline;
  const differences = heads.slice(1).flatMap((h) => stageDifferences(first, h));
  const commands = heads.map((h) => shellQuote(h.server ?? ''));
  return {
    code: 'servers-differ-in-pipeline',
    severity: 'warning',
    stageId: null,
    // About the per-stage rows, not some requests: each pipeline says its count.
    requestIds: [],
    requestCount: 0,
    message:
      `The servers in this merged log served ${groups.length} different pipelines: ${groups.map(pipelineText).join('; ')}. ` +
      (differences.length === 0
        ? 'Their stages look alike, their models differ. '
        : `They differ: ${differences.join('; ')}. `) +
      "The per-stage rows pool each stage id over every server, so a stage's percentiles mix different stages (and models) and describe none of them. " +
      `Read one server at a time: stage-lens analyze --server ${andList(commands).replace(/ and (?=\S+$)/, ' or ')} (explain takes --server too).`,
  };
}
