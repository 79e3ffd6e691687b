// The pipeline each server of a merged log served (kubectl logs --prefix, docker compose logs,
// stern), and the finding when servers served different ones. Replicas of one deployment serve
// one pipeline; a compose file that runs a Qwen3-TTS service beside a Qwen3-Omni one does not,
// and the per-stage rows then pool "stage 0" of a talker and of a thinker, describing neither.
// A server's shape is that of all its requests (its boots together) and the first model its
// start-up lines name, compared as boots are (bootPipelines.ts).
import { shellQuote } from '../shellWords';
import { BootPipelineEvidence, modelOfBoot, pipelinesDifferFinding, type BootPipeline } from './bootPipelines';
import type { AnalyzedRequest, Finding } from './types';

/** The model each server of a merged log named first in each of its boots (each server numbers its own). */
export class ServerBootModels {
  private readonly models = new Map<string, Map<number, string>>();

  /** A start-up line of `server` named `model` while `boot` was its current boot (the first of each counts). */
  note(server: string, boot: number, model: string): void {
    let models = this.models.get(server);
    if (models === undefined) this.models.set(server, (models = new Map<number, string>()));
    if (!models.has(boot)) models.set(boot, model);
  }

  /** The model `server`'s own start-up lines named for its boot `boot`; null when they named none (another server's is not its). */
  of(server: string, boot: number, bootZeroHasRequests: boolean): string | null {
    const models = this.models.get(server);
    return models === undefined ? null : modelOfBoot(models, boot, bootZeroHasRequests);
  }

  /** Every (server, boot, model) noted, to copy. */
  *entries(): Generator<readonly [string, number, string]> {
    for (const [server, models] of this.models) for (const [boot, model] of models) yield [server, boot, model];
  }
}

/** Per server of a merged log: its requests' stages and the model its start-up lines named. */
export class ServerPipelineEvidence {
  /** Keyed by each server's ordinal. */
  private readonly evidence = new BootPipelineEvidence();
  private readonly ordinals = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly bootModels = new ServerBootModels();

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
    this.bootModels.note(server, boot, model);
  }

  /** The model `server`'s own start-up lines named for its boot `boot`; null when they named none (another server's is not its). */
  bootModel(server: string, boot: number, bootZeroHasRequests: boolean): string | null {
    return this.bootModels.of(server, boot, bootZeroHasRequests);
  }

  /** A request of no server's tag is none of theirs. */
  add(request: AnalyzedRequest): void {
    if (request.server !== undefined) this.evidence.add(request, this.ordinalOf(request.server));
  }

  /** The same models with no request yet: for the pipelines of a subset of the requests. */
  modelsOnly(): ServerPipelineEvidence {
    const copy = new ServerPipelineEvidence();
    for (const [server, boot, model] of this.bootModels.entries()) copy.noteModel(server, boot, model);
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
  return pipelinesDifferFinding(pipelines, {
    code: 'servers-differ-in-pipeline',
    subject: 'The servers in this merged log',
    part: 'server',
    option: (head) => shellQuote(head.server ?? ''),
  });
}
