// The lines a `vllm serve <model> --omni --log-stats` process prints before it serves
// (including the API server's version line, which Stage Lens uses to count boots, and
// the orchestrator's `All stages initialized successfully`) and when it shuts down.
import type { LogWriter } from './logWriter';
import type { Topology } from './topology';
import { pyStrRepr } from './pyFormat';

export const VLLM_VERSION = '0.31.0';

export interface StartupContext {
  readonly topology: Topology;
  readonly host: string;
  readonly port: number;
  readonly pid: number;
  readonly talkerFirstAudioActive: boolean;
  readonly debug: boolean;
}

export function startupLines(w: LogWriter, c: StartupContext): string {
  const t = c.topology;
  const at = 0;
  const args: string[] = [
    `'model_tag': ${pyStrRepr(t.model)}`,
    `'host': '${c.host}'`,
    `'port': ${c.port}`,
    `'model': ${pyStrRepr(t.model)}`,
    `'omni': True`,
    `'log_stats': True`,
  ];
  if (t.deployConfigPath !== null) args.push(`'deploy_config': ${pyStrRepr(t.deployConfigPath)}`);
  let out = w.line('INFO', 'apiVersion', `vLLM API server version ${VLLM_VERSION}`, at);
  out += w.line('INFO', 'apiArgs', `non-default args: {${args.join(', ')}}`, at);
  if (t.deployConfigPath !== null)
    out += w.line('INFO', 'deploy', `Loaded deploy config from ${t.deployConfigPath}`, at);
  out += w.line(
    'INFO',
    'omniInit',
    `[Orchestrator] Initializing ${t.stages.length} stages (async_chunk=${t.asyncChunk ? 'True' : 'False'})`,
    at,
  );
  for (const s of t.stages) {
    out += w.line(
      'INFO',
      'stageInit',
      `[Stage-${s.stageId}] ${s.role} initialized (model_runner=${s.modelRunner}, max_num_seqs=${s.maxNumSeqs}, num_replicas=${s.replicas})`,
      at,
    );
  }
  out += w.line('DEBUG', 'omniInit', '[Orchestrator] stage_replica_map built for Prometheus stage/replica labels', at);
  out += w.line('INFO', 'omniReady', '[Orchestrator] All stages initialized successfully', at);
  if (t.talkerFirstAudioRequested && !c.talkerFirstAudioActive) {
    out += w.line(
      'WARNING',
      'firstAudio',
      'talker_first_audio is set but inactive: it needs model_runner v2 and async_chunk on the talker -> code2wav edge',
      at,
    );
  } else if (c.talkerFirstAudioActive) {
    out += w.line(
      'INFO',
      'firstAudio',
      'Talker first audio enabled: the talker sends the first audio frame through the codec stage',
      at,
    );
  }
  out += w.line('INFO', 'chatTemplate', 'Using default chat sampling params from model: {}', at);
  out += w.line(
    'INFO',
    'apiStarting',
    `Starting vLLM API server on http://${c.host.includes(':') ? `[${c.host}]` : c.host}:${c.port}`,
    at,
  );
  out += w.line('INFO', 'launcherRoutes', 'Available routes are:', at);
  for (const [route, method] of [
    ['/health', 'GET'],
    ['/metrics', 'GET'],
    ['/v1/models', 'GET'],
    ['/v1/chat/completions', 'POST'],
    ['/v1/audio/speech', 'POST'],
  ] as const) {
    out += w.line('INFO', 'launcherRoute', `Route: ${route}, Methods: ${method}`, at);
  }
  out += w.uvicorn(`Started server process [${c.pid}]`);
  out += w.uvicorn('Waiting for application startup.');
  out += w.uvicorn('Application startup complete.');
  return out;
}

export function shutdownLines(w: LogWriter): string {
  return (
    w.uvicorn('Shutting down') +
    w.uvicorn('Waiting for application shutdown.') +
    w.uvicorn('Application shutdown complete.')
  );
}
