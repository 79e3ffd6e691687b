// `stage-lens simulate` arguments: parsed with node:util parseArgs, validated, and
// resolved into a topology (scenario, optionally overlaid by a deploy YAML) and a
// stats build. Every problem is a UsageError, which the CLI turns into exit code 2.
import { parseArgs } from 'node:util';
import { applyDeployConfig, DeployConfigError, loadMergedDeployConfig } from './deployConfig';
import { deployTopology } from './deployConfigFit';
import { LOOPBACK_HOSTS } from './httpServer';
import type { MetricsPrefix } from './metrics';
import { FIXED_BUILD, type StatsBuild } from './stageFields';
import { SCENARIOS, scenarioTopology, type ModelRunner, type ScenarioName, type Topology } from './topology';

export class UsageError extends Error {}

export const HELP = `Usage: stage-lens simulate [options]

A stand-in for \`vllm serve <model> --omni --deploy-config <yaml> --log-stats\`: prints
vLLM-Omni log lines and per-request stats tables to stdout and serves GET /metrics,
/health and /v1/models on a loopback address.

Pipeline
  --scenario <name>        qwen3-tts (default; talker -> code2wav), qwen3-omni
                           (thinker -> talker -> code2wav), glm-image (AR -> diffusion),
                           cold-start (qwen3-tts whose first request waits for a
                           stage-0 JIT build; its client sends one request at a time)
  --deploy-config <yaml>   take stages, num_replicas, max_num_seqs, model_runner
                           (v1 where the YAML sets none, vLLM-Omni's default),
                           async_chunk and connector extras from a deploy YAML
                           (base_config overlays resolved relative to the file);
                           without --scenario the pipeline is inferred from its name
  --talker-first-audio     set talker_first_audio (effective only with model_runner v2
                           and async chunk, as on a real server)
  --async-chunk, --no-async-chunk   override the YAML's async_chunk
  --model-runner <v1|v2>   override every stage's model runner
  --model <name>           served model name (default: the scenario's model)
  --cold-start-ms <ms>     cold-start JIT build on stage 0 (default 8500)

Stats build (comma-separated, default fixed)
  --stats-build <list>     fixed: current build (phase split with input wait split,
                             codec first-audio fix, diffusion missing-value rule)
                           before-fix: codec TTFT signature of seed 000 under talker
                             first audio; for glm-image an older build writing _ms
                             ints and 0 for "not measured"
                           no-input-split: no vllm_input_wait_ms/vllm_ready_queued_ms
                             (queued includes the input wait)

Load and time
  --rps <n>                mean client requests per second of simulated time (default 2;
                           glm-image 0.15): Poisson arrivals from 0.5 s on; each
                           request's tables are printed when it finishes
  --requests <n>           exit 0 once the n-th request's stats are printed
  --duration <s>           exit 0 after this many seconds of simulated time
  --speed <x>              simulated time runs x times faster than wall time (default 1)
  --seed <n>               deterministic requests (default: random)
  --fixed-clock            fixed timestamps and pid too, for golden output
  --linger                 after --requests/--duration, keep serving the final
                           /metrics (simulated time frozen) until SIGTERM/SIGINT

Output and HTTP
  --debug-tables           as VLLM_LOGGING_LEVEL=DEBUG in the environment: print
                           every stats table ([Overall Summary], [RequestE2EStats],
                           [StageRequestStats], [TransferEdgeStats], all logged at
                           DEBUG upstream) and relative file paths in every line.
                           At the default INFO level a request prints only its
                           [OmniTiming] line, as a real server does
  --color                  ANSI colours, as vllm-omni forces with --omni
  --prefix <p>             process prefix: apiserver ("(APIServer pid=N) ", default),
                           api ("(API) "), none
  --metrics-prefix <p>     new (vllm_omni:*, default) or old (vllm:omni_*)
  --port <n>               HTTP port (default 8000; 0 picks a free one and prints it)
  --host <addr>            loopback address to bind (default 127.0.0.1)
  -h, --help               show this help
`;

/** How the simulator prefixes its log lines: `(APIServer pid=N)`, `(API)`, or not at all. */
export type ProcessPrefix = 'apiserver' | 'api' | 'none';

export interface SimulateOptions {
  readonly topology: Topology;
  readonly build: StatsBuild;
  readonly seed: number;
  readonly rps: number;
  readonly speed: number;
  readonly requests: number | null;
  readonly durationS: number | null;
  /** DEBUG level: the stats tables are printed (--debug-tables or VLLM_LOGGING_LEVEL=DEBUG). */
  readonly debugTables: boolean;
  readonly color: boolean;
  readonly prefix: ProcessPrefix;
  readonly metricsPrefix: MetricsPrefix;
  readonly fixedClock: boolean;
  readonly host: string;
  readonly port: number;
  readonly coldStartMs: number;
  /** Keep serving the final /metrics after the run ended, until a signal. */
  readonly linger: boolean;
}

function number(
  name: string,
  raw: string | undefined,
  check: (n: number) => boolean,
  what: string,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${what}, got '${raw}'`);
  return n;
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got '${raw}'`);
  return raw as T;
}

export function parseStatsBuild(raw: string): StatsBuild {
  let build: StatsBuild = FIXED_BUILD;
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  // `fixed` is the current build as a whole: an older build's trait beside it says two builds.
  const older = parts.find((p) => p !== 'fixed');
  if (parts.includes('fixed') && older !== undefined && (older === 'before-fix' || older === 'no-input-split'))
    throw new UsageError(`--stats-build: 'fixed' is the current build; it does not combine with '${older}'`);
  for (const part of parts) {
    if (part === 'fixed') continue;
    else if (part === 'before-fix') build = { ...build, codecFirstAudioFix: false, diffusionMissingValueRule: false };
    else if (part === 'no-input-split') build = { ...build, inputSplit: false };
    else throw new UsageError(`--stats-build: unknown build '${part}' (fixed, before-fix, no-input-split)`);
  }
  return build;
}

/**
 * The level vLLM's logger runs at: `VLLM_LOGGING_LEVEL` (upper-cased by vllm/envs.py),
 * INFO when unset. Only DEBUG prints the stats tables.
 */
export function debugFromEnvironment(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env['VLLM_LOGGING_LEVEL'] ?? 'INFO').trim().toUpperCase() === 'DEBUG';
}

/** Parses argv; returns null when --help was asked for. `env` decides the log level, as vLLM's. */
export function parseSimulateArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): SimulateOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        scenario: { type: 'string' },
        'deploy-config': { type: 'string' },
        'talker-first-audio': { type: 'boolean' },
        'async-chunk': { type: 'boolean' },
        'no-async-chunk': { type: 'boolean' },
        'model-runner': { type: 'string' },
        model: { type: 'string' },
        'cold-start-ms': { type: 'string' },
        'stats-build': { type: 'string' },
        rps: { type: 'string' },
        requests: { type: 'string' },
        duration: { type: 'string' },
        speed: { type: 'string' },
        seed: { type: 'string' },
        'fixed-clock': { type: 'boolean' },
        linger: { type: 'boolean' },
        'debug-tables': { type: 'boolean' },
        color: { type: 'boolean' },
        prefix: { type: 'string' },
        'metrics-prefix': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help === true) return null;

  const explicitScenario = oneOf<ScenarioName>('scenario', values.scenario, SCENARIOS);
  let topology: Topology;
  const deploy = values['deploy-config'];
  if (deploy !== undefined) {
    try {
      const { config, files } = loadMergedDeployConfig(deploy);
      topology = applyDeployConfig(deployTopology(config, files, explicitScenario), config, deploy);
    } catch (e) {
      if (e instanceof DeployConfigError) throw new UsageError(e.message);
      throw e;
    }
  } else {
    topology = scenarioTopology(explicitScenario ?? 'qwen3-tts');
  }
  if (values['async-chunk'] === true && values['no-async-chunk'] === true)
    throw new UsageError('--async-chunk and --no-async-chunk exclude each other');
  if (values['async-chunk'] === true) topology = { ...topology, asyncChunk: true };
  if (values['no-async-chunk'] === true) topology = { ...topology, asyncChunk: false };
  if (values['talker-first-audio'] === true) topology = { ...topology, talkerFirstAudioRequested: true };
  const runner = oneOf<ModelRunner>('model-runner', values['model-runner'], ['v1', 'v2']);
  if (runner !== undefined)
    topology = { ...topology, stages: topology.stages.map((s) => ({ ...s, modelRunner: runner })) };
  if (values.model !== undefined) {
    if (values.model.trim() === '') throw new UsageError('--model must not be empty');
    topology = { ...topology, model: values.model };
  }

  const host = values.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.includes(host))
    throw new UsageError(`--host must be a loopback address (${LOOPBACK_HOSTS.join(', ')}), got '${host}'`);
  const positiveInt = (n: number): boolean => Number.isInteger(n) && n > 0;
  return {
    topology,
    build: parseStatsBuild(values['stats-build'] ?? 'fixed'),
    seed: number('seed', values.seed, Number.isSafeInteger, 'an integer') ?? Math.floor(Math.random() * 2 ** 31),
    rps:
      number('rps', values.rps, (n) => n > 0 && n <= 100_000, 'a number in (0, 100000]') ??
      (topology.scenario === 'glm-image' ? 0.15 : 2),
    speed: number('speed', values.speed, (n) => n > 0, 'a positive number') ?? 1,
    requests: number('requests', values.requests, positiveInt, 'a positive integer') ?? null,
    durationS: number('duration', values.duration, (n) => n > 0, 'a positive number of seconds') ?? null,
    debugTables: values['debug-tables'] === true || debugFromEnvironment(env),
    color: values.color === true,
    prefix: oneOf<ProcessPrefix>('prefix', values.prefix, ['apiserver', 'api', 'none']) ?? 'apiserver',
    metricsPrefix: oneOf<MetricsPrefix>('metrics-prefix', values['metrics-prefix'], ['new', 'old']) ?? 'new',
    fixedClock: values['fixed-clock'] === true,
    host,
    port:
      number('port', values.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'an integer in 0..65535') ?? 8000,
    coldStartMs: number('cold-start-ms', values['cold-start-ms'], (n) => n >= 0, 'a non-negative number') ?? 8500,
    linger: values.linger === true,
  };
}

/**
 * What `stage-lens simulate <argv>` runs (its pipeline, served model, stages), read as the
 * simulator reads it: a session launched with it is named by this. null when it would not start.
 */
export function simulatedTopology(argv: readonly string[]): Topology | null {
  try {
    return parseSimulateArgs(argv)?.topology ?? null;
  } catch {
    return null;
  }
}
