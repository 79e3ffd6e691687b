// Two example logs built by hand from vLLM-Omni's rendering rules (docs/formats.md#tables):
// (a) Qwen3-TTS and (b) diffusion (test/fixtures/logs/b7-examples-*.log), written as the server writes them (CRLF continuation lines with the full
// prefix): once plain with `(APIServer pid=4242)` and `stats.py`, once with ANSI colours,
// `(API (0))` and the DEBUG path `vllm_omni/metrics/stats.py`. Plus a phase-split table
// with `None` cells, the input-wait split and a duplex title, interrupted by another process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ParseOutput } from '../../server/core/records';
import { BLANK, NOT_MEASURED, measured } from '../../server/core/values';
import { fixtureLog, num, numbers, ofKind, parseBytes, single, utf8 } from './support/logHelpers';
import { parseLogText } from '../../server/core/log';

const VARIANTS = [
  { name: 'plain', file: 'b7-examples-plain.log', process: 'APIServer pid=4242', path: 'stats.py' },
  {
    name: 'ANSI colours, (API (0)), vllm_omni/metrics/stats.py',
    file: 'b7-examples-ansi.log',
    process: 'API (0)',
    path: 'vllm_omni/metrics/stats.py',
  },
] as const;

function checkQwen3Tts(out: ParseOutput, process: string, path: string): void {
  assert.deepEqual(out.problems, []);
  assert.deepEqual(
    out.records.map((r) => [r.kind, r.line]),
    [
      ['overallSummary', 2],
      ['requestE2E', 16],
      ['omniTiming', 23],
      ['stageTable', 25],
      ['stageTable', 53],
    ],
  );

  const overall = single(out, 'overallSummary');
  assert.deepEqual(overall.header, {
    level: 'INFO',
    timestamp: '08-21 18:00:00',
    file: path,
    fileLine: 612,
    process,
    stagePrefix: null,
  });
  assert.deepEqual(numbers(overall.fields), {
    e2e_requests: 1,
    e2e_wall_time_ms: 2714.905,
    e2e_total_tokens: 89,
    e2e_avg_time_per_request_ms: 2714.905,
    e2e_avg_tokens_per_s: 32.782,
    input_preprocess_time_ms: 9.214,
    e2e_stage_0_wall_time_ms: 1238.402,
    e2e_stage_1_wall_time_ms: 2580.133,
  });

  const e2e = single(out, 'requestE2E');
  assert.equal(e2e.requestId, 'speech-5d0c9a7e2b4f4c1d');
  assert.deepEqual(numbers(e2e.fields), { e2e_total_ms: 2714.781, e2e_total_tokens: 89 });
  assert.equal(e2e.fields['transfers_total_kbytes'], undefined, 'hidden: zero on every column');

  const timing = single(out, 'omniTiming');
  assert.equal(timing.requestId, 'speech-5d0c9a7e2b4f4c1d');
  assert.deepEqual([timing.totalS, timing.preprocessS, timing.engineS], [2.71, 0.01, 2.71]);
  assert.deepEqual(timing.stages, [
    { stageId: 0, label: null, seconds: 1.23 },
    { stageId: 1, label: null, seconds: 1.3 },
  ]);

  const [tts, image] = ofKind(out, 'stageTable');
  assert.ok(tts !== undefined && image !== undefined);
  assert.equal(tts.requestId, 'speech-5d0c9a7e2b4f4c1d');
  assert.equal(tts.complete, true);
  assert.equal(tts.header?.level, 'DEBUG');
  assert.equal(tts.header?.file, path);
  assert.deepEqual(
    tts.columns.map((c) => [c.column, c.stageId, c.segment]),
    [
      ['0', 0, 1],
      ['1', 1, 1],
    ],
  );
  const [talker, codec] = tts.columns.map((c) => c.fields);
  assert.ok(talker !== undefined && codec !== undefined);
  assert.equal(num(codec, 'audio_generated_frames'), 97920);
  assert.equal(num(codec, 'audio_sample_rate'), 24000);
  assert.equal(num(codec, 'audio_duration_s'), 4.08);
  assert.equal(num(talker, 'audio_generated_frames'), 0, 'a printed 0 is a measured 0');
  assert.deepEqual(talker['inter_output_latencies_ms'], measured(22.783, 50));
  assert.deepEqual(codec['inter_output_latencies_ms'], measured(257.825, 4));
  assert.deepEqual(talker['vllm_itls_ms'], measured(22.65, 50));
  assert.deepEqual(codec['vllm_itls_ms'], BLANK, 'an empty cell (empty list) is blank: printed, no number');
  assert.deepEqual(talker['output_unit_type'], { state: 'text', value: 'latent' });
  assert.deepEqual(codec['output_unit_type'], { state: 'text', value: 'audio' });
  assert.deepEqual(
    [
      num(talker, 'vllm_queued_ms'),
      num(talker, 'vllm_prefill_ms'),
      num(talker, 'vllm_decode_ms'),
      num(talker, 'vllm_ttft_ms'),
    ],
    [0.412, 38.905, 1139.25, 41.25],
  );
  assert.deepEqual(
    [
      num(codec, 'vllm_queued_ms'),
      num(codec, 'vllm_prefill_ms'),
      num(codec, 'vllm_decode_ms'),
      num(codec, 'vllm_ttft_ms'),
    ],
    [0.188, 17.336, 1098.614, 18.4],
  );
  assert.equal(num(codec, 'serving_time_to_first_output_ms'), 142.605);
  assert.equal(num(talker, 'stage_gen_time_ms'), 1234.567);
  for (const hidden of ['replica_id', 'vllm_num_preemptions', 'vllm_input_wait_ms', 'vllm_ready_queued_ms']) {
    assert.equal(talker[hidden], undefined, `${hidden} is hidden (absent)`);
    assert.ok(!tts.rows.includes(hidden));
  }
  assert.equal(tts.rows.length, 22);
  assert.equal(tts.rows[0], 'audio_duration_s');
  assert.equal(tts.rows[21], 'vllm_ttft_ms');

  // (b): the same call site in the same second: the lead-in starts a new record.
  assert.equal(image.requestId, 'chatcmpl-7b2e41f0c9d84a55');
  assert.equal(image.complete, true);
  assert.equal(image.columns.length, 1);
  const diffusion = image.columns[0]?.fields ?? {};
  assert.deepEqual(numbers(diffusion), {
    batch_id: 3,
    batch_size: 1,
    denoise_step_latency_ms: 172.247,
    diffusion_engine_exec_time_s: 8.431,
    image_pixels: 1048576,
    image_time_to_first_output_ms: 8611.902,
    num_inference_steps: 50,
    output_ready_wait_time_s: 0.002,
    output_unit_count: 1,
    postprocess_time_s: 0.093,
    preprocess_time_s: 0.014,
    serving_time_to_first_output_ms: 8650.118,
    stage_gen_time_ms: 8612.345,
  });
  assert.ok(image.rows.includes('inter_output_latencies_ms'), 'the row of an empty list is printed...');
  assert.deepEqual(diffusion['inter_output_latencies_ms'], BLANK, '...but holds no value (blank)');
  assert.equal(diffusion['scheduler_queue_wait_s'], undefined);
  assert.equal(diffusion['postprocess_time_ms'], undefined);
  assert.equal(diffusion['vllm_prefill_ms'], undefined);
}

for (const v of VARIANTS) {
  test(`examples (a) and (b), ${v.name}: exact values, (n=...) counts, hidden rows absent`, () => {
    checkQwen3Tts(parseLogText(fixtureLog(v.file)), v.process, v.path);
  });
}

test('examples: plain and ANSI variants give the same records apart from the header', () => {
  const plain = parseLogText(fixtureLog('b7-examples-plain.log'));
  const ansi = parseLogText(fixtureLog('b7-examples-ansi.log'));
  const strip = (out: ParseOutput) => out.records.map((r) => ({ ...r, header: null }));
  assert.deepEqual(strip(ansi), strip(plain));
});

test('example fixtures keep the CRLF continuation of the server (the test data is what it claims)', () => {
  const text = fixtureLog('b7-examples-plain.log');
  assert.equal(text.split('\r\n').length - 1, 73 - 5, 'every line but the last of each of the 5 records ends in CRLF');
  assert.ok(
    fixtureLog('b7-examples-ansi.log').includes(
      '\x1b[1;36m(API (0))\x1b[0;0m \x1b[37mDEBUG\x1b[0m \x1b[90m08-21 18:00:00 [vllm_omni/metrics/stats.py:672]\x1b[0m ',
    ),
  );
});

test('phase split: None cells stay not-measured, input-wait split, duplex identity, interleaved process', () => {
  const out = parseBytes(utf8(fixtureLog('phase-split-none-duplex.log')));
  assert.deepEqual(out.problems, []);
  assert.equal(out.records.length, 1, 'the engine line in between is not a record and does not break the table');
  const table = single(out, 'stageTable');
  assert.equal(table.complete, true);
  assert.equal(table.line, 2);
  assert.equal(table.requestId, 'r1');
  assert.deepEqual(table.identity, { request_id: 'r1', response: 'resp-2', turn: '2', reason: 'stop' });
  assert.deepEqual(table.header, {
    level: 'DEBUG',
    timestamp: '08-21 18:00:05',
    file: 'vllm_omni/metrics/stats.py',
    fileLine: 672,
    process: 'API',
    stagePrefix: null,
  });
  const [s0, s1] = table.columns.map((c) => c.fields);
  assert.ok(s0 !== undefined && s1 !== undefined);
  assert.deepEqual(s0['vllm_decode_ms'], measured(900));
  assert.deepEqual(s1['vllm_decode_ms'], NOT_MEASURED);
  assert.deepEqual(s1['vllm_prefill_ms'], NOT_MEASURED);
  assert.deepEqual(s1['vllm_num_preemptions'], NOT_MEASURED);
  assert.equal(num(s0, 'vllm_num_preemptions'), 2);
  assert.deepEqual(s0['vllm_input_wait_ms'], NOT_MEASURED);
  assert.deepEqual(s0['vllm_ready_queued_ms'], NOT_MEASURED);
  assert.equal(num(s1, 'vllm_input_wait_ms'), 85000.125);
  assert.equal(num(s1, 'vllm_ready_queued_ms'), 1443.5);
  assert.equal(num(s1, 'vllm_queued_ms'), 86443.625);
  assert.equal(num(s1, 'vllm_ttft_ms'), 0, 'a printed 0.000 stays a measured 0 (the analysis decides what it means)');
  assert.equal(num(s1, 'stage_gen_time_ms'), 86512.004);
});
