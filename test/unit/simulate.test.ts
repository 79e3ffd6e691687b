// The simulator's parts in process: the timing model's relations over many requests of
// every scenario and stats build (read back from the rendered log), the deploy-YAML
// overlay, argument parsing and the Python/Prometheus number formatting.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parseLogText } from '../../server/core/log';
import { fixedClock } from '../../server/simulate/clock';
import {
  applyDeployConfig,
  deployConfigCannotRun,
  inferScenario,
  loadMergedDeployConfig,
} from '../../server/simulate/deployConfig';
import { deployConfigFault, deployTopology } from '../../server/simulate/deployConfigFit';
import { parseDeployFile } from '../../server/core/deploy/parsedFile';
import { resolveEffectiveConfig } from '../../server/core/deploy/effectiveConfig';
import { oneOutputEvidence } from '../../server/core/deploy/oneOutputEvidence';
import type { ConfigMap } from '../../server/core/deploy/configTree';
import { LogWriter } from '../../server/simulate/logWriter';
import { SimMetrics } from '../../server/simulate/metrics';
import { parseSimulateArgs, parseStatsBuild, UsageError } from '../../server/simulate/options';
import { goFloat, pyFixed, pyFloatRepr } from '../../server/simulate/pyFormat';
import { formatFloat } from '../../server/simulate/render';
import { FIXED_BUILD, type StatsBuild } from '../../server/simulate/stageFields';
import type { RequestRun } from '../../server/simulate/timeline';
import { TimingModel } from '../../server/simulate/timingModel';
import {
  scenarioTopology,
  talkerFirstAudioCodec,
  type ScenarioName,
  type Topology,
} from '../../server/simulate/topology';
import { e2eMs, field, readLog, sampleCount, stageTableViolations } from './support/simulateLogReader';

const DEPLOY = path.resolve(__dirname, '../fixtures/sim/deploy');

function simulate(
  topology: Topology,
  build: StatsBuild,
  n: number,
  seed = 11,
  rps = 4,
): { runs: RequestRun[]; text: string } {
  const model = new TimingModel(topology, { seed, rps, coldStartMs: 8500, firstArrivalUs: 500_000 });
  const writer = new LogWriter({ process: 'APIServer pid=1', ansi: false, debug: true, clock: fixedClock() }, build);
  const runs = Array.from({ length: n }, () => model.next());
  const text = runs
    .map((r) =>
      writer.requestRecords(
        r,
        r.stages.map(() => r.index + 1),
      ),
    )
    .join('');
  return { runs, text };
}

const withFirstAudio = (t: Topology): Topology => ({ ...t, talkerFirstAudioRequested: true });
const BEFORE_FIX = parseStatsBuild('before-fix');
const NO_SPLIT = parseStatsBuild('no-input-split');

describe('timing model relations, read back from the rendered log', () => {
  const cases: [string, Topology, StatsBuild][] = [];
  for (const s of ['qwen3-tts', 'qwen3-omni', 'glm-image', 'cold-start'] as ScenarioName[]) {
    for (const [name, build] of [
      ['fixed', FIXED_BUILD],
      ['before-fix', BEFORE_FIX],
      ['no-input-split', NO_SPLIT],
    ] as const) {
      cases.push([`${s} ${name}`, scenarioTopology(s), build]);
      if (s === 'qwen3-tts') cases.push([`${s} ${name} first-audio`, withFirstAudio(scenarioTopology(s)), build]);
    }
  }
  cases.push(['qwen3-omni no async chunk', { ...scenarioTopology('qwen3-omni'), asyncChunk: false }, FIXED_BUILD]);
  cases.push(['qwen3-tts high load', scenarioTopology('qwen3-tts'), FIXED_BUILD]);

  for (const [name, topology, build] of cases) {
    test(name, () => {
      const { runs, text } = simulate(topology, build, 150, 7, name.endsWith('high load') ? 60 : 4);
      const log = readLog(text);
      assert.deepEqual(log.problems, []);
      const stageTables = log.tables.filter((t) => t.kind === 'stage');
      assert.equal(stageTables.length, runs.length);
      for (const t of stageTables) assert.deepEqual(stageTableViolations(t, e2eMs(log, t.requestId!)), []);
      // Every request logs its records in the server's order.
      const kinds = log.tables.map((t) => t.kind).filter((k) => k !== 'transfer');
      assert.deepEqual(kinds.slice(0, 3), ['overall', 'e2e', 'stage']);
      assert.equal(log.omniTiming.length, runs.length);
    });
  }

  test('input split: None on stage 0, present on gated stages, absent without the split build', () => {
    const fixed = readLog(simulate(scenarioTopology('qwen3-omni'), FIXED_BUILD, 20).text).tables.filter(
      (t) => t.kind === 'stage',
    );
    for (const t of fixed) {
      assert.equal(field(t, '0', 'vllm_input_wait_ms'), null);
      assert.equal(typeof field(t, '1', 'vllm_input_wait_ms'), 'number');
      assert.equal(typeof field(t, '2', 'vllm_input_wait_ms'), 'number');
    }
    const old = readLog(simulate(scenarioTopology('qwen3-omni'), NO_SPLIT, 20).text).tables.filter(
      (t) => t.kind === 'stage',
    );
    for (const t of old) assert.equal(t.rows.has('vllm_input_wait_ms') || t.rows.has('vllm_ready_queued_ms'), false);
  });

  test('MRv2 talker: one output at stop, so prefill covers decode and decode is a measured 0', () => {
    const { runs } = simulate(scenarioTopology('qwen3-tts'), FIXED_BUILD, 30);
    for (const r of runs) {
      const talker = r.stages[0]!;
      assert.equal(talker.llm!.outputs.length, 1);
      assert.ok(talker.llm!.generationTokens >= 2);
    }
  });

  test('async chunk with streaming upstreams: serving TTFO increases downstream (qwen3-omni, V1)', () => {
    const { runs } = simulate(scenarioTopology('qwen3-omni'), FIXED_BUILD, 60);
    for (const r of runs) {
      const firsts = r.stages.map((s) => s.outputHandledTs[0]!);
      for (let i = 1; i < firsts.length; i++)
        assert.ok(firsts[i]! > firsts[i - 1]!, `${r.requestId}: stage ${i} first output before stage ${i - 1}`);
    }
  });

  test('talker first audio, fixed: codec TTFT includes the wait for a late first-audio frame', () => {
    const { runs } = simulate(withFirstAudio(scenarioTopology('qwen3-tts')), FIXED_BUILD, 200);
    const held = runs.filter((r) => r.stages[1]!.llm!.outputs[0]!.heldForFirstAudio);
    assert.ok(held.length > 0, 'some codec outputs overtake the frame');
    const log = readLog(simulate(withFirstAudio(scenarioTopology('qwen3-tts')), FIXED_BUILD, 200).text);
    for (const r of held) {
      const t = log.tables.find((x) => x.kind === 'stage' && x.requestId === r.requestId)!;
      const queued = field(t, '1', 'vllm_queued_ms') as number;
      const prefill = field(t, '1', 'vllm_prefill_ms') as number;
      const ttft = field(t, '1', 'vllm_ttft_ms') as number;
      const frameWait = (r.stages[1]!.firstAudioTs! - r.stages[1]!.llm!.outputs[0]!.engineTs) / 1000;
      assert.ok(
        ttft >= queued + prefill + frameWait - 0.01,
        `${r.requestId}: ${ttft} vs ${queued}+${prefill}+${frameWait}`,
      );
    }
  });

  test('before-fix: the codec signature on every request, only under talker first audio', () => {
    const sig = readLog(simulate(withFirstAudio(scenarioTopology('qwen3-tts')), BEFORE_FIX, 40).text).tables.filter(
      (t) => t.kind === 'stage',
    );
    for (const t of sig) {
      assert.equal(field(t, '1', 'vllm_ttft_ms'), 0);
      assert.equal(field(t, '1', 'vllm_prefill_ms'), null);
      assert.ok(field(t, '1', 'vllm_decode_ms') == null);
      assert.equal(typeof field(t, '0', 'vllm_prefill_ms'), 'number');
    }
    const plain = readLog(simulate(scenarioTopology('qwen3-tts'), BEFORE_FIX, 40).text).tables.filter(
      (t) => t.kind === 'stage',
    );
    for (const t of plain) assert.ok((field(t, '1', 'vllm_ttft_ms') as number) > 0);
  });

  test('cold start: first request waits seconds for stage 0, later ones 50-400 ms', () => {
    const { runs } = simulate(scenarioTopology('cold-start'), FIXED_BUILD, 10);
    const wait = (r: RequestRun): number => (r.stages[1]!.llm!.inputReadyTs! - r.stages[1]!.llm!.queuedTs) / 1000;
    assert.ok(wait(runs[0]!) > 8000);
    for (const r of runs.slice(1)) assert.ok(wait(r) > 20 && wait(r) < 400, `${wait(r)}`);
  });

  test('glm-image: diffusion column has no LLM phase values and follows the missing-value rule', () => {
    const log = readLog(simulate(scenarioTopology('glm-image'), FIXED_BUILD, 15, 3, 0.15).text);
    for (const t of log.tables.filter((x) => x.kind === 'stage')) {
      for (const f of [
        'vllm_queued_ms',
        'vllm_prefill_ms',
        'vllm_decode_ms',
        'vllm_input_wait_ms',
        'vllm_ready_queued_ms',
      ]) {
        assert.ok(field(t, '1', f) == null, `${f} on the diffusion stage`);
      }
      assert.equal(typeof field(t, '1', 'diffusion_engine_exec_time_s'), 'number');
      assert.equal(t.rows.has('preprocess_time_s'), false, 'no pre-processor: not measured');
      assert.equal(t.rows.has('forward_time_s'), false, 'profiler off');
      assert.equal(t.rows.has('postprocess_time_ms'), false, 'dropped when diffusion metrics exist');
    }
    assert.ok(
      log.tables.some((t) => t.kind === 'transfer'),
      'no async chunk: transfers recorded',
    );
    const old = readLog(simulate(scenarioTopology('glm-image'), BEFORE_FIX, 5, 3, 0.15).text);
    for (const t of old.tables.filter((x) => x.kind === 'stage')) {
      assert.ok(Number.isInteger(field(t, '1', 'diffusion_engine_exec_time_ms')));
      assert.equal(t.rows.has('diffusion_engine_exec_time_s'), false);
    }
  });
});

describe('metrics agree with the log', () => {
  test('histogram counts and sums equal the logged values', () => {
    const topology = withFirstAudio(scenarioTopology('qwen3-tts'));
    const { runs, text } = simulate(topology, FIXED_BUILD, 40);
    const metrics = new SimMetrics({
      topology,
      modelName: 'm',
      prefix: 'new',
      monotonicBaseUs: 1e9,
      runs: () => runs,
      now: () => 0,
      kvCapacityTokens: 1e5,
    });
    for (const r of runs) metrics.record(r, FIXED_BUILD);
    const prom = metrics.expose();
    const log = readLog(text).tables.filter((t) => t.kind === 'stage');
    for (const stage of ['0', '1']) {
      const sum = (name: string): number =>
        log.reduce((a, t) => a + ((field(t, stage, name) as number | undefined) ?? 0), 0);
      const value = (family: string): number =>
        Number(new RegExp(`^${family}\\{model_name="m",stage="${stage}",replica="0"\\} (\\S+)$`, 'm').exec(prom)![1]);
      assert.equal(value('vllm:time_to_first_token_seconds_count'), runs.length);
      assert.ok(Math.abs(value('vllm:time_to_first_token_seconds_sum') - sum('vllm_ttft_ms') / 1000) < 1e-6);
      assert.ok(Math.abs(value('vllm:request_queue_time_seconds_sum') - sum('vllm_queued_ms') / 1000) < 1e-6);
      assert.ok(Math.abs(value('vllm:request_prefill_time_seconds_sum') - sum('vllm_prefill_ms') / 1000) < 1e-6);
      assert.equal(
        value('vllm:inter_token_latency_seconds_count'),
        log.reduce((a, t) => a + sampleCount(t, stage, 'vllm_itls_ms'), 0),
      );
    }
  });

  test('old prefix and exposition details', () => {
    const topology = scenarioTopology('glm-image');
    const { runs } = simulate(topology, FIXED_BUILD, 3, 3, 0.15);
    const metrics = new SimMetrics({
      topology,
      modelName: 'g',
      prefix: 'old',
      monotonicBaseUs: 0,
      runs: () => runs,
      now: () => 0,
      kvCapacityTokens: 1e5,
    });
    for (const r of runs) metrics.record(r, FIXED_BUILD);
    const prom = metrics.expose();
    assert.match(prom, /^# TYPE vllm:omni_e2e_request_latency_s histogram$/m);
    assert.match(prom, /^# TYPE vllm:omni_requests_success_total counter$/m);
    assert.match(
      prom,
      /^vllm:omni_transfer_size_bytes_bucket\{model_name="g",from_stage="0",from_replica="0",to_stage="1",to_replica="0",le="1\.048576e\+06"\} /m,
    );
    assert.match(prom, /^vllm:omni_diffusion_preprocess_s_sum\{model_name="g",stage="1",replica="0"\} 0\.0$/m);
    assert.doesNotMatch(prom, /^vllm:omni_diffusion_forward_s_count/m);
    assert.doesNotMatch(prom, /vllm_omni:/);
  });
});

describe('the project parser reads the simulator output', () => {
  test('coloured, every prefix, before-fix codec: no problems, three states kept', () => {
    const topology = withFirstAudio(scenarioTopology('qwen3-tts'));
    const model = new TimingModel(topology, { seed: 4, rps: 3, coldStartMs: 0, firstArrivalUs: 0 });
    const runs = Array.from({ length: 12 }, () => model.next());
    for (const process of ['APIServer pid=77', 'API', null]) {
      const writer = new LogWriter({ process, ansi: true, debug: true, clock: fixedClock() }, BEFORE_FIX);
      const { records, problems } = parseLogText(runs.map((r) => writer.requestRecords(r, [1, 1])).join(''));
      assert.deepEqual(problems, []);
      const tables = records.filter((r) => r.kind === 'stageTable');
      assert.equal(tables.length, runs.length);
      for (const t of tables) {
        if (t.kind !== 'stageTable') continue;
        const codec = t.columns.find((c) => c.column === '1')!.fields;
        assert.deepEqual(codec['vllm_ttft_ms'], { state: 'measured', value: 0 });
        assert.deepEqual(codec['vllm_prefill_ms'], { state: 'notMeasured' });
        assert.equal(t.columns.find((c) => c.column === '0')!.fields['vllm_input_wait_ms']?.state, 'notMeasured');
      }
      assert.equal(records.filter((r) => r.kind === 'omniTiming').length, runs.length);
    }
  });
});

describe('deploy config', () => {
  test('base_config chain, replicas, connector extras', () => {
    const { config, files } = loadMergedDeployConfig(path.join(DEPLOY, 'sim_tts_two_codec_replicas.yaml'));
    assert.equal(files.length, 3);
    assert.equal(inferScenario(files, 2), 'qwen3-tts');
    const t = applyDeployConfig(scenarioTopology('qwen3-tts'), config, 'x.yaml');
    assert.deepEqual(
      t.stages.map((s) => [s.stageId, s.replicas, s.modelRunner]),
      [
        [0, 1, 'v2'],
        [1, 2, 'v2'],
      ],
    );
    assert.equal(t.talkerFirstAudioRequested, true);
    assert.equal(t.asyncChunk, true);
    assert.equal(t.chunks.initialFrames, 1);
    assert.equal(talkerFirstAudioCodec(t), 1);
    // Replica ids are assigned round-robin.
    const model = new TimingModel(t, { seed: 1, rps: 2, coldStartMs: 0, firstArrivalUs: 0 });
    assert.deepEqual(
      Array.from({ length: 4 }, () => model.next().stages[1]!.replicaId),
      [0, 1, 0, 1],
    );
  });

  test('single-GPU MRv2 profile sets talker_first_audio through two overlays; omni MRv2 has a ramp', () => {
    const tts = loadMergedDeployConfig(path.join(DEPLOY, 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'));
    const t = applyDeployConfig(scenarioTopology('qwen3-tts'), tts.config, 'x');
    assert.equal(t.talkerFirstAudioRequested, true);
    assert.equal(t.stages[0]!.maxNumSeqs, 128);
    const omni = loadMergedDeployConfig(path.join(DEPLOY, 'qwen3_omni_moe_mrv2.yaml'));
    assert.equal(inferScenario(omni.files, 3), 'qwen3-omni');
    const o = applyDeployConfig(scenarioTopology('qwen3-omni'), omni.config, 'x');
    assert.deepEqual(o.chunks.ramp, [1, 2, 4, 8, 16, 25]);
    assert.equal(
      o.stages.every((s) => s.modelRunner === 'v2'),
      true,
    );
    // Talker first audio needs a talker -> code2wav edge on MRv2: the omni talker qualifies.
    assert.equal(talkerFirstAudioCodec(o), 2);
    const glm = loadMergedDeployConfig(path.join(DEPLOY, 'glm_image.yaml'));
    assert.equal(applyDeployConfig(scenarioTopology('glm-image'), glm.config, 'x').asyncChunk, false);
  });
});

describe('model_runner of a deploy config', () => {
  const simulated = (name: string): string[] => {
    const { config, files } = loadMergedDeployConfig(path.join(DEPLOY, name));
    return applyDeployConfig(deployTopology(config, files), config, name).stages.map((s) => s.modelRunner);
  };

  // What analyze --deploy-config says each stage runs (server/core/deploy, oneOutputEvidence's words).
  const analyzed = (file: string, stages: number): string[] => {
    const load = (p: string) => parseDeployFile(p, fs.readFileSync(p, 'utf8'));
    const root = resolveEffectiveConfig(load(file), (p) => {
      try {
        return load(p);
      } catch {
        return undefined;
      }
    }).root as ConfigMap;
    return Array.from(
      { length: stages },
      (_, i) => /model_runner: (v\d)/.exec(oneOutputEvidence(root, file, i))?.[1] ?? '?',
    );
  };

  test('a config that leaves model_runner out runs the default, v1, whatever the scenario runs without a config', () => {
    // qwen3_tts_high_concurrency.yaml has "# model_runner: v2" commented out; the Qwen3-TTS scenario alone runs v2.
    assert.deepEqual(
      scenarioTopology('qwen3-tts').stages.map((s) => s.modelRunner),
      ['v2', 'v2'],
    );
    assert.deepEqual(simulated('qwen3_tts_high_concurrency.yaml'), ['v1', 'v1']);
    assert.deepEqual(simulated('qwen3_tts_high_concurrency_mrv2.yaml'), ['v2', 'v2']);
    assert.deepEqual(simulated('qwen3_omni_moe.yaml'), ['v1', 'v1', 'v1']);
    assert.deepEqual(simulated('glm_image.yaml'), ['v1', 'v1']);
    // So talker first audio, which needs the talker on v2, does not run there.
    const { config, files } = loadMergedDeployConfig(path.join(DEPLOY, 'qwen3_tts_high_concurrency.yaml'));
    assert.equal(talkerFirstAudioCodec(applyDeployConfig(deployTopology(config, files), config, 'x')), null);
  });

  test("the CUDA platform section and a stage's engine_args set it; other platforms' sections do not", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-runner-'));
    try {
      const base = fs.readFileSync(path.join(DEPLOY, 'qwen3_tts_high_concurrency.yaml'), 'utf8');
      const write = (name: string, text: string): string => {
        fs.writeFileSync(path.join(dir, name), text);
        return name;
      };
      const run = (name: string): string[] => {
        const { config, files } = loadMergedDeployConfig(path.join(dir, name));
        const runners = applyDeployConfig(deployTopology(config, files), config, name).stages.map((s) => s.modelRunner);
        assert.deepEqual(runners, analyzed(path.join(dir, name), runners.length), `analyze reads ${name} alike`);
        return runners;
      };
      write('qwen3_tts_high_concurrency.yaml', base);
      const cuda = write(
        'qwen3_tts_cuda.yaml',
        'base_config: qwen3_tts_high_concurrency.yaml\nplatforms:\n  cuda:\n    model_runner: v2\n',
      );
      const npu = write(
        'qwen3_tts_npu.yaml',
        'base_config: qwen3_tts_high_concurrency.yaml\nplatforms:\n  npu:\n    model_runner: v2\n',
      );
      const stage = write(
        'qwen3_tts_stage.yaml',
        'base_config: qwen3_tts_high_concurrency.yaml\nstages:\n  - stage_id: 0\n    engine_args:\n      model_runner: v2\n',
      );
      assert.deepEqual(run(cuda), ['v2', 'v2']);
      assert.deepEqual(run(npu), ['v1', 'v1']);
      assert.deepEqual(run(stage), ['v2', 'v1']);
      const cudaStage1 = write(
        'qwen3_tts_cuda_stage.yaml',
        'base_config: qwen3_tts_high_concurrency.yaml\nplatforms:\n  cuda:\n    stages:\n      - stage_id: 1\n        model_runner: v2\n',
      );
      assert.deepEqual(run(cudaStage1), ['v1', 'v2']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("agrees with analyze's reading of the config (deploy evidence) on every fixture", () => {
    const yamls = fs.readdirSync(DEPLOY).filter((f) => f.endsWith('.yaml'));
    assert.ok(yamls.length >= 8);
    for (const name of yamls) {
      const runners = simulated(name);
      assert.deepEqual(runners, analyzed(path.join(DEPLOY, name), runners.length), name);
    }
  });
});

describe('whether the simulator can run a deploy config', () => {
  test('in memory: the stage count of its pipeline, a stage_id and num_replicas on every stage', () => {
    const stages = (n: number, extra: Record<string, unknown> = {}) =>
      Array.from({ length: n }, (_, i) => ({ stage_id: i, ...extra }));
    const tts = scenarioTopology('qwen3-tts');
    assert.equal(deployConfigFault({ stages: stages(2) }, 'a.yaml', tts), null);
    assert.equal(deployConfigFault({}, 'a.yaml', tts), 'a.yaml: no stages');
    assert.equal(
      deployConfigFault({ stages: stages(3) }, 'a.yaml', tts),
      'a.yaml has 3 stages; scenario qwen3-tts runs 2',
    );
    assert.equal(
      deployConfigFault({ stages: [{ stage_id: 0 }, { stage_id: 'one' }] }, 'a.yaml', tts),
      'a.yaml: stage 1 has no valid stage_id',
    );
    assert.equal(
      deployConfigFault({ stages: stages(2, { num_replicas: 0 }) }, 'a.yaml', tts),
      'a.yaml: stage 0: num_replicas must be a positive integer',
    );
    // What vLLM-Omni refuses at start-up is refused, not run as something else.
    assert.equal(
      deployConfigFault({ model_runner: 'v3', stages: stages(2) }, 'a.yaml', tts),
      "a.yaml: model_runner must be v1 or v2 (vLLM-Omni rejects 'v3')",
    );
    assert.equal(
      deployConfigFault(
        { stages: [{ stage_id: 0, engine_args: { model_runner: 'v0' } }, { stage_id: 1 }] },
        'a.yaml',
        tts,
      ),
      "a.yaml: stage 0: engine_args.model_runner must be v1 or v2 (vLLM-Omni rejects 'v0')",
    );
    assert.equal(
      deployConfigFault({ platforms: { cuda: { model_runner: 2 } }, stages: stages(2) }, 'a.yaml', tts),
      'a.yaml: platforms.cuda: model_runner must be v1 or v2 (vLLM-Omni rejects 2)',
    );
    assert.equal(
      deployConfigFault({ async_chunk: 'maybe', stages: stages(2) }, 'a.yaml', tts),
      "a.yaml: async_chunk must be true or false (got 'maybe')",
    );
    assert.equal(
      deployConfigFault({ stages: stages(2, { max_num_seqs: -5 }) }, 'a.yaml', tts),
      'a.yaml: stage 0: max_num_seqs must be a positive integer (got -5)',
    );
    assert.equal(
      deployConfigFault({ stages: stages(2, { max_num_seqs: 0 }) }, 'a.yaml', tts),
      'a.yaml: stage 0: max_num_seqs must be a positive integer (got 0)',
    );
    // A replica count no machine has would only exhaust memory in the simulator.
    assert.equal(
      deployConfigFault({ stages: stages(2, { num_replicas: 1_000_000 }) }, 'a.yaml', tts),
      'a.yaml: stage 0: num_replicas 1000000: the simulator runs at most 64 replicas of a stage',
    );
    assert.equal(
      deployConfigFault(
        { async_chunk: false, model_runner: 'v2', stages: stages(2, { num_replicas: 64, max_num_seqs: 8 }) },
        'a.yaml',
        tts,
      ),
      null,
    );
    // The pipeline by the files' names, a Windows path's included, else by the stage count.
    assert.equal(deployTopology({ stages: stages(4) }, ['C:\\w\\my-deploy.yaml']).scenario, 'qwen3-omni');
    assert.equal(deployTopology({ stages: stages(2) }, ['C:\\omni\\qwen3_tts.yaml']).scenario, 'qwen3-tts');
  });

  test('from a file: the usage error the simulator prints for it, null for every config it runs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-fit-'));
    try {
      const write = (name: string, text: string): string => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      const cannot: [string, string[]][] = [
        [write('four.yaml', 'stages:\n' + [0, 1, 2, 3].map((i) => `  - stage_id: ${i}\n`).join('')), []],
        [write('tts_three.yaml', 'stages:\n  - stage_id: 0\n  - stage_id: 1\n  - stage_id: 2\n'), []],
        [write('no_id_tts.yaml', 'stages:\n  - stage_id: 0\n  - engine_args: {}\n'), []],
        [write('replicas_tts.yaml', 'stages:\n  - stage_id: 0\n  - stage_id: 1\n    num_replicas: 0\n'), []],
        [write('runner_tts.yaml', 'model_runner: v3\nstages:\n  - stage_id: 0\n  - stage_id: 1\n'), []],
        [write('broken.yaml', 'stages: [\n'), []],
        [write('list.yaml', '- stage_id: 0\n'), []],
        [write('overlay.yaml', 'base_config: missing.yaml\n'), []],
        [path.join(DEPLOY, 'qwen3_omni_moe.yaml'), ['glm-image']],
      ];
      for (const [file, scenario] of cannot) {
        const argv = ['--deploy-config', file, ...scenario.flatMap((s) => ['--scenario', s])];
        let printed = '';
        assert.throws(
          () => parseSimulateArgs(argv),
          (e: Error) => ((printed = e.message), e instanceof UsageError),
        );
        assert.equal(deployConfigCannotRun(file, scenario[0] as ScenarioName | undefined), printed, file);
      }
      for (const name of fs.readdirSync(DEPLOY).filter((f) => f.endsWith('.yaml'))) {
        const file = path.join(DEPLOY, name);
        assert.ok(parseSimulateArgs(['--deploy-config', file]) !== null);
        assert.equal(deployConfigCannotRun(file), null, name);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('arguments', () => {
  test('defaults and usage errors', () => {
    const o = parseSimulateArgs([])!;
    assert.equal(o.port, 8000);
    assert.equal(o.host, '127.0.0.1');
    assert.equal(o.rps, 2);
    assert.equal(o.topology.scenario, 'qwen3-tts');
    assert.equal(parseSimulateArgs(['--help']), null);
    for (const bad of [
      ['--scenario', 'x'],
      ['--port', '70000'],
      ['--host', '10.0.0.1'],
      ['--rps', '0'],
      ['--requests', '1.5'],
      ['--stats-build', 'newest'],
      ['--bogus'],
      ['--deploy-config', path.join(DEPLOY, 'missing.yaml')],
      ['--deploy-config', path.join(DEPLOY, 'qwen3_omni_moe.yaml'), '--scenario', 'glm-image'],
      // Two builds at once.
      ['--stats-build', 'fixed,before-fix'],
      ['--stats-build', 'no-input-split,fixed'],
    ]) {
      assert.throws(() => parseSimulateArgs(bad), UsageError, bad.join(' '));
    }
    assert.deepEqual(parseStatsBuild('before-fix,no-input-split'), {
      codecFirstAudioFix: false,
      inputSplit: false,
      diffusionMissingValueRule: false,
    });
  });
});

describe('number formatting', () => {
  test('Python float formatting, ties to even', () => {
    assert.equal(formatFloat(1.0625), '1.062');
    assert.equal(formatFloat(1234567.5), '1,234,567.500');
    assert.equal(pyFixed(0.125, 2), '0.12');
    assert.equal(pyFixed(2.675, 2), '2.67');
    assert.equal(pyFloatRepr(1e-5), '1e-05');
    assert.equal(pyFloatRepr(3), '3.0');
    assert.equal(goFloat(268435456), '2.68435456e+08');
    assert.equal(goFloat(Infinity), '+Inf');
  });
});
