// `stage-lens simulate` as a real child process: its stdout read back table by table,
// its real /metrics scraped on 127.0.0.1, its exit on --requests, --duration and
// SIGTERM. Each test starts its own process on an ephemeral port.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  e2eMs,
  field,
  readLog,
  sampleCount,
  stageTableViolations,
  type LogTable,
  type ReadLog,
} from '../unit/support/simulateLogReader';
import { httpGet, killAll, runToEnd, sample, SimProcess } from './support/simulateProcess';

const DEPLOY = path.resolve(__dirname, '../fixtures/sim/deploy');
const FAST = ['--port', '0', '--speed', '50'];

after(killAll);

const stageTables = (log: ReadLog): LogTable[] => log.tables.filter((t) => t.kind === 'stage');
const countTables = (out: string, title: string): number => out.split(`[${title} [request_id=`).length - 1;

/** Starts a lingering run, waits for its N requests, scrapes /metrics, stops it with SIGTERM. */
async function runAndScrape(
  args: readonly string[],
  n: number,
): Promise<{ log: ReadLog; prom: string; stdout: string }> {
  const p = new SimProcess([...FAST, '--requests', String(n), '--linger', ...args]);
  const port = await p.port();
  await p.waitFor((o) => countTables(o, 'RequestE2EStats') >= n);
  const res = await httpGet(port, '/metrics');
  assert.equal(res.status, 200);
  assert.match(res.type, /^text\/plain; version=0\.0\.4/);
  p.signal('SIGTERM');
  const exit = await p.exited;
  assert.deepEqual(exit, { code: 0, signal: null });
  const log = readLog(p.stdout);
  assert.deepEqual(log.problems, []);
  assert.equal(countTables(p.stdout, 'RequestE2EStats'), n, 'exactly n requests');
  return { log, prom: res.body, stdout: p.stdout };
}

function assertRelations(log: ReadLog): void {
  for (const t of stageTables(log)) assert.deepEqual(stageTableViolations(t, e2eMs(log, t.requestId!)), []);
}

const series = (family: string, model: string, stage: string, replica = '0'): string =>
  `${family}{model_name="${model}",stage="${stage}",replica="${replica}"}`;
const TTS = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';

describe('stage-lens simulate (real process)', { concurrency: true }, () => {
  test('qwen3-tts, talker first audio, fixed build: relations hold and /metrics equals the log', async () => {
    const { log, prom, stdout } = await runAndScrape(['--seed', '21', '--debug-tables', '--talker-first-audio'], 5);
    const tables = stageTables(log);
    assert.equal(tables.length, 5);
    assertRelations(log);
    for (const t of tables) {
      assert.deepEqual(t.headers, ['0', '1']);
      assert.equal(t.level, 'DEBUG');
      assert.equal(field(t, '0', 'vllm_input_wait_ms'), null, 'stage 0 has no input gate');
      assert.ok((field(t, '1', 'vllm_input_wait_ms') as number) > 0);
      assert.ok((field(t, '1', 'vllm_ttft_ms') as number) > 0, 'the codec records its own TTFT');
      assert.equal(typeof field(t, '1', 'vllm_prefill_ms'), 'number');
      assert.equal(typeof field(t, '1', 'vllm_decode_ms'), 'number');
    }
    for (const stage of ['0', '1']) {
      const sum = (name: string): number =>
        tables.reduce((a, t) => a + ((field(t, stage, name) as number | undefined) ?? 0), 0);
      const v = (family: string): number => sample(prom, series(family, TTS, stage))!;
      assert.equal(v('vllm:time_to_first_token_seconds_count'), 5);
      assert.equal(v('vllm:request_queue_time_seconds_count'), 5);
      assert.ok(Math.abs(v('vllm:time_to_first_token_seconds_sum') - sum('vllm_ttft_ms') / 1000) < 1e-5);
      assert.ok(Math.abs(v('vllm:request_queue_time_seconds_sum') - sum('vllm_queued_ms') / 1000) < 1e-5);
      assert.ok(Math.abs(v('vllm:request_prefill_time_seconds_sum') - sum('vllm_prefill_ms') / 1000) < 1e-5);
      assert.ok(Math.abs(v('vllm:request_decode_time_seconds_sum') - sum('vllm_decode_ms') / 1000) < 1e-5);
      assert.equal(
        v('vllm:inter_token_latency_seconds_count'),
        tables.reduce((a, t) => a + sampleCount(t, stage, 'vllm_itls_ms'), 0),
      );
      assert.equal(
        sample(
          prom,
          `vllm:time_to_first_token_seconds_bucket{model_name="${TTS}",stage="${stage}",replica="0",le="+Inf"}`,
        ),
        5,
      );
    }
    const e2eSum = log.tables.filter((t) => t.kind === 'e2e').reduce((a, t) => a + e2eMs(log, t.requestId!), 0);
    assert.ok(
      Math.abs(sample(prom, `vllm_omni:e2e_request_latency_s_sum{model_name="${TTS}"}`)! - e2eSum / 1000) < 1e-5,
    );
    assert.equal(sample(prom, `vllm_omni:requests_success_total{model_name="${TTS}",finished_reason="stop"}`), 5);
    const ttfo = tables.reduce((a, t) => a + (field(t, '1', 'serving_time_to_first_output_ms') as number), 0);
    assert.ok(Math.abs(sample(prom, series('vllm_omni:audio_ttfp_s_sum', TTS, '1'))! - ttfo / 1000) < 1e-5);
    assert.equal(log.omniTiming.length, 5);
    assert.match(
      stdout,
      /\(APIServer pid=\d+\) INFO \d\d-\d\d \d\d:\d\d:\d\d \[[^\]]*api_server\.py:\d+\] vLLM API server version \d/,
    );
    assert.match(stdout, /All stages initialized successfully/);
    assert.match(stdout, /\r\n\(APIServer pid=\d+\) DEBUG /, 'CRLF continuation lines');
    assert.match(stdout, /INFO: {5}Application shutdown complete\.\n$/);
  });

  test('before-fix build: the codec signature on every request, in the log and in /metrics', async () => {
    const { log, prom } = await runAndScrape(
      ['--seed', '5', '--debug-tables', '--talker-first-audio', '--stats-build', 'before-fix'],
      4,
    );
    assertRelations(log);
    for (const t of stageTables(log)) {
      assert.equal(field(t, '1', 'vllm_ttft_ms'), 0, 'codec TTFT printed 0.000');
      assert.equal(field(t, '1', 'vllm_prefill_ms'), null, 'None next to the talker value');
      assert.ok(field(t, '1', 'vllm_decode_ms') == null);
      assert.ok((field(t, '0', 'vllm_ttft_ms') as number) > 0);
    }
    assert.equal(
      sample(prom, series('vllm:time_to_first_token_seconds_count', TTS, '1')),
      0,
      'no TTFT sample for the codec',
    );
    assert.equal(sample(prom, series('vllm:time_to_first_token_seconds_count', TTS, '0')), 4);
    assert.ok(
      sample(prom, series('vllm:request_prefill_time_seconds_sum', TTS, '1'))! < 0,
      'negative prefill observations',
    );
    const inf = sample(
      prom,
      `vllm:inter_token_latency_seconds_bucket{model_name="${TTS}",stage="1",replica="0",le="+Inf"}`,
    )!;
    const le80 = sample(
      prom,
      `vllm:inter_token_latency_seconds_bucket{model_name="${TTS}",stage="1",replica="0",le="80.0"}`,
    )!;
    assert.ok(inf - le80 >= 4, 'an ITL measured from a last-token time of 0 per request');
    assert.ok(
      sample(prom, series('vllm:request_decode_time_seconds_sum', TTS, '1'))! > 4 * 3600,
      'decode measured from 0',
    );
  });

  test('cold-start: the first request waits seconds for its codec input, later ones do not', async () => {
    const { exit, stdout } = await runToEnd([
      ...FAST,
      '--speed',
      '100',
      '--scenario',
      'cold-start',
      '--requests',
      '3',
      '--debug-tables',
      '--seed',
      '2',
    ]);
    assert.deepEqual(exit, { code: 0, signal: null });
    const log = readLog(stdout);
    assertRelations(log);
    const waits = stageTables(log).map((t) => field(t, '1', 'vllm_input_wait_ms') as number);
    assert.equal(waits.length, 3);
    assert.ok(waits[0]! > 8000 && waits[0]! < 9500, `cold wait ${waits[0]}`);
    for (const w of waits.slice(1)) assert.ok(w > 20 && w < 400, `warm wait ${w}`);
    assert.match(stdout, /Building JIT module sampling/);
    assert.equal(stdout.split('vLLM API server version').length - 1, 1, 'one boot');
  });

  test('glm-image from a deploy overlay: diffusion stage without LLM phases, sparse families when measured', async () => {
    const { log, prom } = await runAndScrape(
      [
        '--speed',
        '400',
        '--rps',
        '1',
        '--seed',
        '8',
        '--debug-tables',
        '--deploy-config',
        path.join(DEPLOY, 'sim_glm_image_profiler.yaml'),
      ],
      3,
    );
    assertRelations(log);
    const model = 'zai-org/GLM-Image';
    for (const t of stageTables(log)) {
      for (const f of ['vllm_queued_ms', 'vllm_prefill_ms', 'vllm_decode_ms', 'vllm_input_wait_ms'])
        assert.ok(field(t, '1', f) == null, f);
      assert.equal(typeof field(t, '1', 'forward_time_s'), 'number', 'profiler on: measured');
      assert.equal(t.rows.has('preprocess_time_s'), false, 'no pre-processor: absent');
    }
    assert.equal(log.tables.filter((t) => t.kind === 'transfer').length, 3);
    assert.equal(sample(prom, series('vllm_omni:diffusion_forward_s_count', model, '1')), 3);
    assert.equal(
      sample(prom, series('vllm_omni:diffusion_preprocess_s_count', model, '1')),
      3,
      'a 0 sample without a pre-processor',
    );
    assert.equal(sample(prom, series('vllm_omni:diffusion_preprocess_s_sum', model, '1')), 0);
    assert.equal(sample(prom, `vllm_omni:stage_in_queue_s_count{model_name="${model}",stage="1"}`), 3);
    assert.equal(
      sample(prom, series('vllm_omni:diffusion_kv_load_s_count', model, '1')),
      undefined,
      'not measured: no series',
    );
    assert.equal(
      sample(prom, series('vllm:time_to_first_token_seconds_count', model, '1')),
      undefined,
      'no vLLM engine on the diffusion stage',
    );
    assert.equal(sample(prom, series('vllm:time_to_first_token_seconds_count', model, '0')), 3);
  });

  test('qwen3-omni, older build, colours, (API) prefix and the old metrics prefix', async () => {
    const { log, prom, stdout } = await runAndScrape(
      [
        '--scenario',
        'qwen3-omni',
        '--stats-build',
        'no-input-split',
        '--color',
        '--prefix',
        'api',
        '--metrics-prefix',
        'old',
        '--debug-tables',
        '--seed',
        '4',
      ],
      3,
    );
    assert.match(stdout, /\x1b\[1;36m\(API\)\x1b\[0;0m \x1b\[37mDEBUG\x1b\[0m/);
    assertRelations(log);
    for (const t of stageTables(log)) {
      assert.deepEqual(t.headers, ['0', '1', '2']);
      assert.equal(t.rows.has('vllm_input_wait_ms'), false);
      const ttfo = ['0', '1', '2'].map((s) => field(t, s, 'serving_time_to_first_output_ms') as number);
      assert.ok(
        ttfo[0]! < ttfo[1]! && ttfo[1]! < ttfo[2]!,
        'increasing downstream under async chunk (V1 stages stream)',
      );
    }
    assert.match(
      prom,
      /^vllm:omni_e2e_request_latency_s_count\{model_name="Qwen\/Qwen3-Omni-30B-A3B-Instruct"\} 3\.0$/m,
    );
    assert.doesNotMatch(prom, /^vllm_omni:/m);
  });

  test('deploy overlay with two codec replicas: replica ids round-robin, labelled per replica', async () => {
    const { log, prom } = await runAndScrape(
      ['--seed', '9', '--debug-tables', '--deploy-config', path.join(DEPLOY, 'sim_tts_two_codec_replicas.yaml')],
      4,
    );
    assertRelations(log);
    // Assigned round-robin in arrival order, printed in finishing order. The row is
    // hidden when every stage of a request ran on replica 0.
    const replica = (t: LogTable, stage: string): number | null | undefined =>
      t.rows.has('replica_id') ? field(t, stage, 'replica_id') : 0;
    const codecReplicas = stageTables(log).map((t) => replica(t, '1'));
    assert.ok(stageTables(log).every((t) => replica(t, '0') === 0));
    for (const r of [0, 1]) {
      const logged = codecReplicas.filter((x) => x === r).length;
      assert.ok(logged > 0, `replica ${r} used`);
      assert.equal(sample(prom, series('vllm:time_to_first_token_seconds_count', TTS, '1', String(r))), logged);
    }
    assert.equal(codecReplicas.length, 4);
  });

  test('--seed with --fixed-clock: identical stdout; --requests N exits after exactly N', async () => {
    const args = [
      ...FAST,
      '--speed',
      '200',
      '--seed',
      '99',
      '--fixed-clock',
      '--requests',
      '3',
      '--debug-tables',
      '--talker-first-audio',
    ];
    const [a, b] = await Promise.all([runToEnd(args), runToEnd(args)]);
    for (const r of [a, b]) {
      assert.deepEqual(r.exit, { code: 0, signal: null });
      assert.equal(countTables(r.stdout, 'RequestE2EStats'), 3);
      assert.equal(countTables(r.stdout, 'StageRequestStats'), 3);
    }
    const normalize = (s: string): string =>
      s.replace(/127\.0\.0\.1:\d+(?=\n|$)/g, '127.0.0.1:PORT').replace(/'port': \d+/, "'port': PORT");
    assert.equal(normalize(a.stdout), normalize(b.stdout));
  });

  test('SIGTERM mid-run: exit 0 quickly, no half-written table', async () => {
    const p = new SimProcess(['--port', '0', '--speed', '20', '--debug-tables', '--seed', '3']);
    await p.port();
    await p.waitFor((o) => countTables(o, 'StageRequestStats') >= 2);
    const t0 = Date.now();
    p.signal('SIGTERM');
    assert.deepEqual(await p.exited, { code: 0, signal: null });
    assert.ok(Date.now() - t0 < 3000);
    const log = readLog(p.stdout);
    assert.deepEqual(log.problems, []);
    assert.ok(log.tables.every((t) => t.complete));
    assert.match(p.stdout, /Application shutdown complete\.\n$/);
  });

  test('--duration ends the run; periodic engine lines, one per LLM engine; HTTP routes', async () => {
    const p = new SimProcess(['--port', '0', '--speed', '100', '--duration', '25', '--seed', '6', '--linger']);
    const port = await p.port();
    assert.equal((await httpGet(port, '/health')).status, 200);
    const models = await httpGet(port, '/v1/models');
    assert.equal((JSON.parse(models.body) as { data: { id: string }[] }).data[0]!.id, TTS);
    assert.equal((await httpGet(port, '/nope')).status, 404);
    await p.waitFor((o) => (o.match(/Engine 001: /g) ?? []).length >= 2);
    p.signal('SIGINT');
    assert.deepEqual(await p.exited, { code: 0, signal: null });
    const log = readLog(p.stdout);
    assert.deepEqual(
      log.engineLines.map((l) => l.slice(0, 10)),
      ['Engine 000', 'Engine 001', 'Engine 000', 'Engine 001'],
    );
    assert.match(
      log.engineLines[0]!,
      /^Engine 000: Avg prompt throughput: \d+\.\d tokens\/s, Avg generation throughput: \d+\.\d tokens\/s, Running: \d+ reqs, Waiting: \d+ reqs, GPU KV cache usage: \d+\.\d%, Prefix cache hit rate: 0\.0%$/,
    );
  });

  test('usage errors exit 2 with a message', async () => {
    const r = await runToEnd(['--port', 'eighty']);
    assert.equal(r.exit.code, 2);
    assert.match(r.stderr, /--port must be an integer/);
    assert.equal(r.stdout, '');
  });
});
