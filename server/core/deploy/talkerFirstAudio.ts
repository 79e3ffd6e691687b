// Whether `talker_first_audio: true` can take effect, judged on the effective config.
// The prerequisites are those of vLLM-Omni's `talker_first_audio_enabled` and the
// repository note on it: Model Runner V2, async chunk, a one-frame first codec chunk
// (the first `codec_chunk_ramp` entry when a ramp is set, else
// `initial_codec_chunk_frames`, which counts as 0 when unset), a single-rank talker on a
// local executor (`distributed_executor_backend` unset or `uni`), prefix caching off for
// it, and the environment switch `VLLM_OMNI_TALKER_FIRST_AUDIO` on (the process reads it
// as on when it is unset or exactly "1"). CUDA is assumed (the default platform).
//
// The switch is read from the process environment, which the YAML shows only when a
// stage's `env` sets it; otherwise the check is undecided (`ok: null`): the hover says so
// and no diagnostic is raised.
//
// The talker is not named in the YAML. It is found from the edges that use the
// connector carrying the flag: the codec is the stage that receives on that connector
// and sends on it to no one, the talker is the stage feeding the codec. Stage-level
// prerequisites are checked only when that is determined, so that a guess never raises
// a warning.
import { entryOf, isList, isMap, isScalar, renderValue, valueOf, type ConfigEntry, type ConfigMap } from './configTree';
import {
  connectorEdges,
  integerOf,
  modelRunnerSetting,
  readsAsFalse,
  readsAsTrue,
  stageSetting,
  stageViews,
  type StageView,
} from './stageViews';

export type TfaCheckCode =
  | 'tfa-async-chunk-off'
  | 'tfa-model-runner-not-v2'
  | 'tfa-initial-chunk-not-one'
  | 'tfa-prefix-caching-on'
  | 'tfa-talker-parallel'
  | 'tfa-executor-not-local'
  | 'tfa-env-switch-off';

export interface TfaCheck {
  readonly code: TfaCheckCode;
  /** Met, not met, or not decided by the YAML (null: the hover says what decides it). */
  readonly ok: boolean | null;
  /** What talker first audio needs, e.g. `async_chunk on`. */
  readonly requirement: string;
  /** What the effective config has, e.g. `async_chunk: false`. */
  readonly actual: string;
  /** The entry that decides the outcome; undefined when a default decides. */
  readonly decidedBy: ConfigEntry | undefined;
  /** A value for `decidedBy` that satisfies the check, when the fix is obvious. */
  readonly fixValue?: string;
  /** A key to add when nothing is written and the default fails the check. */
  readonly missingKey?: {
    readonly key: string;
    readonly value: string;
    readonly scope: 'top-level' | 'connector-extra';
  };
}

export interface TalkerFirstAudioReport {
  readonly connector: string;
  /** The effective `talker_first_audio` entry. */
  readonly flag: ConfigEntry;
  readonly talkers: readonly number[];
  readonly codecs: readonly number[];
  readonly checks: readonly TfaCheck[];
}

export function talkerFirstAudioReports(root: ConfigMap): TalkerFirstAudioReport[] {
  const connectors = valueOf(root, 'connectors');
  if (!isMap(connectors)) return [];
  const views = stageViews(root);
  const reports: TalkerFirstAudioReport[] = [];
  for (const [name, connector] of connectors.entries) {
    const extra = valueOf(connector.value, 'extra');
    const flag = entryOf(extra, 'talker_first_audio');
    if (!flag || !readsAsTrue(flag) || !isMap(extra)) continue;
    const { talkers, codecs } = talkerAndCodec(views, name);
    const talkerViews = views.filter((view) => talkers.includes(view.id));
    const ends = views.filter((view) => talkers.includes(view.id) || codecs.includes(view.id));
    const checks = [
      asyncChunkCheck(root, ends),
      ...modelRunnerChecks(root, views, talkerViews),
      firstChunkCheck(extra),
      ...talkerViews.flatMap((view) => talkerChecks(root, view)),
      ...(talkerViews.length === 0 ? pipelineWideChecks(root, views) : []),
      ...envSwitchChecks(views, talkerViews),
    ];
    reports.push({ connector: name, flag, talkers, codecs, checks });
  }
  return reports;
}

function talkerAndCodec(views: readonly StageView[], connector: string): { talkers: number[]; codecs: number[] } {
  const edges = connectorEdges(views).filter((edge) => edge.connector === connector);
  const senders = new Set(edges.map((edge) => edge.from));
  const codecs = [...new Set(edges.map((edge) => edge.to))].filter((id) => !senders.has(id));
  const talkers = [...new Set(edges.filter((edge) => codecs.includes(edge.to)).map((edge) => edge.from))];
  return { talkers: talkers.sort((a, b) => a - b), codecs: codecs.sort((a, b) => a - b) };
}

function asyncChunkCheck(root: ConfigMap, ends: readonly StageView[]): TfaCheck {
  const requirement = '`async_chunk` on';
  const top = entryOf(root, 'async_chunk');
  if (readsAsFalse(top)) return fail('tfa-async-chunk-off', requirement, 'async_chunk: false', top, 'true');
  for (const view of ends) {
    const own = entryOf(view.stage, 'async_chunk') ?? entryOf(view.platformStage, 'async_chunk');
    if (readsAsFalse(own))
      return fail('tfa-async-chunk-off', requirement, `stage ${view.id} async_chunk: false`, own, 'true');
  }
  return pass(
    'tfa-async-chunk-off',
    requirement,
    top ? `async_chunk: ${renderValue(top.value)}` : 'async_chunk: true (default)',
    top,
  );
}

function modelRunnerChecks(root: ConfigMap, views: readonly StageView[], talkers: readonly StageView[]): TfaCheck[] {
  const requirement = '`model_runner: v2` for the talker';
  if (talkers.length === 0) {
    // Without a known talker, every stage setting v2 counts as v2.
    const all = views.length > 0 && views.every((view) => runnerOf(modelRunnerSetting(root, view)) === 'v2');
    const top = modelRunnerSetting(root, undefined);
    if (all)
      return [
        pass(
          'tfa-model-runner-not-v2',
          requirement,
          'model_runner: v2 on every stage',
          modelRunnerSetting(root, views[0]),
        ),
      ];
    return [runnerCheck(requirement, top, 'model_runner')];
  }
  return talkers.map((view) =>
    runnerCheck(requirement, modelRunnerSetting(root, view), `stage ${view.id} model_runner`),
  );
}

function runnerCheck(requirement: string, entry: ConfigEntry | undefined, label: string): TfaCheck {
  const runner = runnerOf(entry);
  if (runner === 'v2') return pass('tfa-model-runner-not-v2', requirement, `${label}: v2`, entry);
  // Quoted as the hover quotes a value: cut at 50 characters.
  if (entry)
    return fail('tfa-model-runner-not-v2', requirement, `${label}: ${renderValue(entry.value, 50)}`, entry, 'v2');
  return {
    ...fail('tfa-model-runner-not-v2', requirement, `${label}: v1 (default)`, undefined),
    missingKey: { key: 'model_runner', value: 'v2', scope: 'top-level' },
  };
}

function runnerOf(entry: ConfigEntry | undefined): string {
  return entry && isScalar(entry.value) && entry.value.value !== null ? String(entry.value.value) : 'v1';
}

function firstChunkCheck(extra: ConfigMap): TfaCheck {
  const requirement = 'a one-frame first codec chunk';
  const rampEntry = entryOf(extra, 'codec_chunk_ramp');
  const ramp = parseRamp(rampEntry);
  if (ramp && rampEntry) {
    const text = `codec_chunk_ramp starts at ${ramp[0]}`;
    return ramp[0] === 1
      ? pass('tfa-initial-chunk-not-one', requirement, text, rampEntry)
      : fail('tfa-initial-chunk-not-one', requirement, text, rampEntry);
  }
  const initialEntry = entryOf(extra, 'initial_codec_chunk_frames');
  const initial = integerOf(initialEntry);
  if (initial === 1)
    return pass('tfa-initial-chunk-not-one', requirement, 'initial_codec_chunk_frames: 1', initialEntry);
  if (initialEntry && !(isScalar(initialEntry.value) && initialEntry.value.value === null)) {
    return fail(
      'tfa-initial-chunk-not-one',
      requirement,
      `initial_codec_chunk_frames: ${renderValue(initialEntry.value)}`,
      initialEntry,
      '1',
    );
  }
  return {
    ...fail(
      'tfa-initial-chunk-not-one',
      requirement,
      'initial_codec_chunk_frames unset (counts as 0) and no codec_chunk_ramp',
      undefined,
    ),
    missingKey: { key: 'initial_codec_chunk_frames', value: '1', scope: 'connector-extra' },
  };
}

/** `codec_chunk_ramp` as vLLM-Omni's `parse_chunk_ramp` reads it: null unless ≥ 2 positive integers. */
function parseRamp(entry: ConfigEntry | undefined): number[] | null {
  if (!entry) return null;
  const value = entry.value;
  let numbers: number[];
  if (isList(value))
    numbers = value.items.map((item) => (isScalar(item) && typeof item.value === 'number' ? item.value : NaN));
  else if (isScalar(value) && typeof value.value === 'string')
    numbers = value.value.split(',').map((part) => Number(part.trim()));
  else return null;
  if (numbers.length < 2 || numbers.some((n) => !Number.isInteger(n) || n <= 0)) return null;
  return numbers;
}

function talkerChecks(root: ConfigMap, view: StageView): TfaCheck[] {
  const prefix = stageSetting(root, view, 'enable_prefix_caching');
  const tp = stageSetting(root, view, 'tensor_parallel_size');
  const pp = stageSetting(root, view, 'pipeline_parallel_size');
  const stage = `stage ${view.id}`;
  return [
    readsAsTrue(prefix)
      ? fail(
          'tfa-prefix-caching-on',
          `prefix caching off for the talker (${stage})`,
          `${stage} enable_prefix_caching: true`,
          prefix,
          'false',
        )
      : pass(
          'tfa-prefix-caching-on',
          `prefix caching off for the talker (${stage})`,
          `${stage} enable_prefix_caching: ${prefix ? renderValue(prefix.value) : 'unset'}`,
          prefix,
        ),
    parallelCheck(stage, 'tensor_parallel_size', tp),
    parallelCheck(stage, 'pipeline_parallel_size', pp),
    executorCheck(
      `a local executor for the talker (${stage})`,
      stage,
      stageSetting(root, view, 'distributed_executor_backend'),
    ),
  ];
}

/** vLLM-Omni's check: `distributed_executor_backend in (None, "uni")`. */
function executorName(entry: ConfigEntry | undefined): string | null {
  return entry && isScalar(entry.value) && entry.value.value !== null ? String(entry.value.value) : null;
}

function executorCheck(requirement: string, label: string, entry: ConfigEntry | undefined): TfaCheck {
  const name = executorName(entry);
  const actual = `${label} distributed_executor_backend: ${name === null || entry === undefined ? 'unset' : renderValue(entry.value, 50)}`;
  return name === null || name === 'uni'
    ? pass('tfa-executor-not-local', requirement, actual, entry)
    : fail('tfa-executor-not-local', requirement, actual, entry);
}

/**
 * Without a known talker, a setting that every stage runs with is still the talker's: a
 * non-local executor on every stage fails the check (anything less decides nothing).
 */
function pipelineWideChecks(root: ConfigMap, views: readonly StageView[]): TfaCheck[] {
  const settings = views.map((view) => stageSetting(root, view, 'distributed_executor_backend'));
  const names = settings.map(executorName);
  if (views.length === 0 || names.some((name) => name === null || name === 'uni')) return [];
  return [executorCheck('a local executor for the talker', 'every stage', settings[0])];
}

const ENV_SWITCH = 'VLLM_OMNI_TALKER_FIRST_AUDIO';

/** The stage's `VLLM_OMNI_TALKER_FIRST_AUDIO` entry: platform override, then `env`, then `runtime.env`. */
function envSwitchEntry(view: StageView): ConfigEntry | undefined {
  for (const stage of [view.platformStage, view.stage]) {
    const entry =
      entryOf(valueOf(stage, 'env'), ENV_SWITCH) ?? entryOf(valueOf(valueOf(stage, 'runtime'), 'env'), ENV_SWITCH);
    if (entry) return entry;
  }
  return undefined;
}

/**
 * The process reads the switch as `os.environ.get(..., "1") == "1"`: a string or number
 * written in a stage's `env` decides it (`"0"`, `0`, `"off"` are off); a YAML boolean's
 * text in the environment is not known here, so it decides nothing.
 */
function envSwitchChecks(views: readonly StageView[], talkers: readonly StageView[]): TfaCheck[] {
  const requirement = `\`${ENV_SWITCH}\` on (unset or "1")`;
  const judged = talkers.length > 0 ? talkers : views;
  const entries = judged.map(envSwitchEntry);
  const values = entries.map((entry) =>
    entry && isScalar(entry.value) && (typeof entry.value.value === 'string' || typeof entry.value.value === 'number')
      ? String(entry.value.value)
      : undefined,
  );
  const where = (view: StageView) => (talkers.length > 0 ? `stage ${view.id} env` : 'env');
  // Off where the talker runs: for a known talker, its own env; otherwise only when every stage turns it off.
  const offAt = values.findIndex((value) => value !== undefined && value !== '1');
  const everyOff = values.length > 0 && values.every((value) => value !== undefined && value !== '1');
  if (offAt >= 0 && (talkers.length > 0 || everyOff)) {
    const view = judged[offAt];
    return [
      fail(
        'tfa-env-switch-off',
        requirement,
        `${where(view)} ${ENV_SWITCH}: ${JSON.stringify(values[offAt])}`,
        entries[offAt],
        '"1"',
      ),
    ];
  }
  const onAt = values.findIndex((value) => value === '1');
  if (onAt >= 0 && values.every((value) => value === '1')) {
    return [pass('tfa-env-switch-off', requirement, `${where(judged[onAt])} ${ENV_SWITCH}: "1"`, entries[onAt])];
  }
  return [
    {
      code: 'tfa-env-switch-off',
      ok: null,
      requirement,
      actual: `not set in this config: it is on unless the server's environment sets ${ENV_SWITCH} to anything but "1" (Stage Lens cannot see that environment from the YAML)`,
      decidedBy: undefined,
    },
  ];
}

function parallelCheck(stage: string, key: string, entry: ConfigEntry | undefined): TfaCheck {
  const size = integerOf(entry);
  const requirement = `${key} 1 for the talker (${stage})`;
  const actual = `${stage} ${key}: ${size ?? '1 (default)'}`;
  return size !== null && size > 1
    ? fail('tfa-talker-parallel', requirement, actual, entry)
    : pass('tfa-talker-parallel', requirement, actual, entry);
}

function pass(code: TfaCheckCode, requirement: string, actual: string, decidedBy: ConfigEntry | undefined): TfaCheck {
  return { code, ok: true, requirement, actual, decidedBy };
}

function fail(
  code: TfaCheckCode,
  requirement: string,
  actual: string,
  decidedBy: ConfigEntry | undefined,
  fixValue?: string,
): TfaCheck {
  return fixValue === undefined
    ? { code, ok: false, requirement, actual, decidedBy }
    : { code, ok: false, requirement, actual, decidedBy, fixValue };
}
