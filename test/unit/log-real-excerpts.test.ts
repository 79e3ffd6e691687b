// Every real excerpt in test/fixtures/real-logs (copied from shared/fixtures/real-logs):
// the values it contains come out of the parser, and what is cut off or in an old format
// is reported, never silently dropped.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { METRICS_SUMMARY_FORMAT, UNTITLED_REQUEST_ID, parseLogText } from '../../server/core/log';
import { NOT_MEASURED } from '../../server/core/values';
import { FIXTURES, num, numbers, ofKind, realLog, single } from './support/logHelpers';

const parse = (name: string) => parseLogText(realLog(name));

test('every real excerpt has a test below', () => {
  const files = readdirSync(join(FIXTURES, 'real-logs')).filter((f) => f.endsWith('.log'));
  assert.equal(files.length, 15);
});

test('01 PR #891: Overall Summary without process prefix, cut-off RequestE2EStats', () => {
  const out = parse('01-pr891-overall-e2e-noprefix.log');
  const overall = single(out, 'overallSummary');
  assert.deepEqual(numbers(overall.fields), {
    e2e_requests: 10,
    e2e_wall_time_ms: 81430.702,
    e2e_total_tokens: 3347,
    e2e_avg_time_per_request_ms: 8143.07,
    e2e_avg_tokens_per_s: 41.102,
    e2e_stage_0_wall_time_ms: 19442.824,
    e2e_stage_1_wall_time_ms: 59771.091,
    e2e_stage_2_wall_time_ms: 3015.388,
  });
  assert.equal(overall.complete, true);
  assert.equal(overall.line, 1);
  assert.deepEqual(overall.header, {
    level: 'INFO',
    timestamp: '02-06 15:29:11',
    file: 'stats.py',
    fileLine: 454,
    process: null,
    stagePrefix: null,
  });

  const e2e = single(out, 'requestE2E');
  assert.equal(e2e.requestId, '0_72e5beab-aa6d-447d-9727-a3ca66667ac0');
  assert.equal(e2e.complete, false);
  assert.equal(e2e.line, 15);
  assert.deepEqual(Object.keys(e2e.fields), []);
  assert.equal(out.problems.length, 1);
  assert.equal(out.problems[0]?.line, 15);
  assert.match(out.problems[0]?.message ?? '', /RequestE2EStats.*cut off by the end of the input/);
});

test('02 PR #891: Overall Summary with (APIServer pid=N) prefix', () => {
  const out = parse('02-pr891-overall-apiserver-prefix.log');
  assert.equal(out.records.length, 1);
  const overall = single(out, 'overallSummary');
  assert.equal(num(overall.fields, 'e2e_wall_time_ms'), 40828.324);
  assert.equal(num(overall.fields, 'e2e_total_tokens'), 5105);
  assert.equal(num(overall.fields, 'e2e_avg_tokens_per_s'), 125.036);
  assert.equal(num(overall.fields, 'e2e_stage_2_wall_time_ms'), 625.227);
  assert.equal(overall.header?.process, 'APIServer pid=656024');
  assert.equal(overall.complete, true);
  // The trailing `(APIServer pid=656024) INFO` fragment is not a record.
  assert.deepEqual(out.problems, []);
});

test('03 PR #1468: "\\n%s" lead-in, table cut off at the end', () => {
  const out = parse('03-pr1468-overall-empty-first-line.log');
  const overall = single(out, 'overallSummary');
  assert.equal(overall.line, 2, 'the record is located at its title line, after the empty lead-in');
  assert.equal(overall.complete, false);
  assert.equal(Object.keys(overall.fields).length, 8, 'every complete row is kept');
  assert.equal(num(overall.fields, 'e2e_wall_time_ms'), 8407.655);
  assert.equal(num(overall.fields, 'e2e_total_tokens'), 5151);
  assert.equal(num(overall.fields, 'e2e_stage_2_wall_time_ms'), 149.998);
  assert.equal(out.problems.length, 1);
  assert.equal(out.problems[0]?.line, 2);
  assert.match(out.problems[0]?.message ?? '', /Overall Summary.*line 2.*cut off/);
});

test('04 PR #1977: record glued after a tqdm bar', () => {
  const out = parse('04-pr1977-diffusion-overall-glued-to-tqdm.log');
  const overall = single(out, 'overallSummary');
  assert.equal(overall.line, 2);
  assert.equal(overall.complete, true);
  assert.equal(num(overall.fields, 'e2e_wall_time_ms'), 74410.325);
  assert.equal(num(overall.fields, 'e2e_total_tokens'), 1287);
  assert.equal(num(overall.fields, 'e2e_stage_0_wall_time_ms'), 40252.345);
  assert.equal(num(overall.fields, 'e2e_stage_1_wall_time_ms'), 34140.089);
  assert.equal(overall.fields['e2e_stage_2_wall_time_ms'], undefined, 'a two-stage run has no stage 2 row');
  assert.deepEqual(overall.header, {
    level: 'INFO',
    timestamp: '03-19 02:42:42',
    file: 'stats.py',
    fileLine: 519,
    process: null,
    stagePrefix: null,
  });
  const e2e = single(out, 'requestE2E');
  assert.equal(e2e.requestId, '0_501f96ba-184a-4d36-a336-3498e498c5e3');
  assert.equal(e2e.complete, false);
});

test('05 PR #3042: [OmniTiming] with labelled stages, unmerged summary keys', () => {
  const out = parse('05-pr3042-omnitiming-and-overall.log');
  const timing = single(out, 'omniTiming');
  assert.equal(timing.requestId, 'chatcmpl-ac59cea85b422f04');
  assert.deepEqual(timing.identity, { request_id: 'chatcmpl-ac59cea85b422f04' });
  assert.equal(timing.totalS, 1.4);
  assert.equal(timing.preprocessS, 0.01);
  assert.equal(timing.engineS, 1.39);
  assert.deepEqual(timing.stages, [
    { stageId: 0, label: 'thinker', seconds: 0.22 },
    { stageId: 1, label: 'talker', seconds: 1.33 },
    { stageId: 2, label: 'code2wav', seconds: 1.39 },
  ]);
  assert.deepEqual(timing.transfers, []);
  assert.equal(timing.ar2diffusionMs, null);
  assert.equal(timing.header?.file, 'omni_base.py');
  assert.equal(timing.header?.fileLine, 253);

  const overall = single(out, 'overallSummary');
  assert.deepEqual(numbers(overall.fields), {
    e2e_requests: 1,
    request_wall_time_ms: 1396.428,
    input_preprocess_time_ms: 8.002,
    build_add_request_message_time_ms: 8.12,
  });
  assert.equal(overall.fields['engine_pipeline_time_ms'], undefined, 'the row cut mid-line is not read');
  assert.equal(overall.complete, false);
  assert.equal(out.problems.length, 1);
  assert.match(out.problems[0]?.message ?? '', /row at line 10 was cut/);
});

test('06 PR #1107: legacy log_utils request_level_metrics dict, cut off', () => {
  const out = parse('06-pr1107-legacy-log_utils-request_level_metrics.log');
  const legacy = single(out, 'legacyDict');
  assert.equal(out.records.length, 1, 'the [Stage-2] worker line is not a record');
  assert.equal(legacy.format, 'log_utils request_level_metrics');
  assert.equal(legacy.requestId, 'chatcmpl-8f71eb7cb1b37da6');
  assert.equal(legacy.complete, false);
  assert.equal(legacy.line, 2);
  assert.deepEqual(legacy.values, {
    type: 'request_level_metrics',
    request_id: 'chatcmpl-8f71eb7cb1b37da6',
    e2e_time_ms: 58150.07972717285,
    e2e_tpt: 20.037932366358667,
    e2e_total_tokens: 2902,
    transfers_total_time_ms: 244.57550048828125,
    transfers_total_bytes: 55386232,
    'stages.0.stage_gen_time_ms': 62.91389465332031,
    'stages.0.num_tokens_out': 191,
    'stages.0.num_tokens_in': 2093,
  });
  assert.equal(out.problems.length, 1);
  assert.equal(out.problems[0]?.line, 2);
  assert.match(
    out.problems[0]?.message ?? '',
    /legacy log_utils request_level_metrics dict \(pre-Feb-2026 format\).*cut off at line 11/,
  );
});

test('07 issue #693: legacy log_utils dict; the value cut mid-number is dropped', () => {
  const out = parse('07-issue693-legacy-log_utils.log');
  const legacy = single(out, 'legacyDict');
  assert.equal(legacy.requestId, 'chatcmpl-a8bd6ccc232c856c');
  assert.equal(legacy.values['e2e_time_ms'], 130157.95731544495);
  assert.equal(legacy.values['transfers_total_bytes'], 4204693901);
  assert.equal(legacy.values['stages.0.num_tokens_out'], 1000);
  assert.equal(legacy.values['stages.0.num_tokens_in'], 67);
  assert.equal(legacy.values['stages.1.stage_gen_time_ms'], 40429.250955581665);
  assert.equal(legacy.values['stages.1.num_tokens_out'], 100);
  assert.equal(legacy.values['stages.2.stage_gen_time_ms'], undefined, '273.30756187 was cut by the excerpt');
  assert.equal(legacy.complete, false);
  assert.match(out.problems[0]?.message ?? '', /legacy log_utils request_level_metrics dict/);
});

test('08 PR #500: legacy dict whose start is missing, then an [Summary] dict', () => {
  const out = parse('08-pr500-legacy-omni-summary.log');
  const [fragment, summary] = ofKind(out, 'legacyDict');
  assert.ok(fragment !== undefined && summary !== undefined);
  assert.equal(fragment.format, 'log_utils request_level_metrics');
  assert.equal(fragment.requestId, '2_d35b752a-7243-4c3c-8ef2-191afeee9cad');
  assert.equal(fragment.values['transfers_total_time_ms'], -154.68335151672363, 'the negative bug-era value is kept');
  assert.equal(fragment.values['e2e_time_ms'], 655865.7915592194);
  assert.equal(fragment.values['stages.1.num_tokens_out'], 2043);
  assert.equal(fragment.values['stages.2.stage_gen_time_ms'], 2998.4824657440186);
  assert.equal(fragment.complete, false);

  assert.equal(summary.format, 'omni [Summary]');
  assert.equal(summary.line, 10);
  assert.equal(summary.requestId, null);
  assert.equal(summary.values['e2e_requests'], 3);
  assert.equal(summary.values['e2e_sum_time_ms'], 1967503.7143230438);
  assert.equal(summary.values['wall_time_ms'], 655866.8031692505);
  assert.equal(summary.complete, false);

  assert.equal(out.problems.length, 2);
  assert.match(out.problems[0]?.message ?? '', /log_utils request_level_metrics dict.*begins before line 1/);
  assert.match(
    out.problems[1]?.message ?? '',
    /legacy omni\.py \[Summary\] dict \(pre-Feb-2026 format\).*cut off at line 17/,
  );
});

test('09 PR #517: vLLM engine stats per engine, ANSI prefix pasted in caret notation', () => {
  const out = parse('09-pr517-vllm-loggers-ansi-prefix.log');
  const stats = ofKind(out, 'engineStats');
  assert.deepEqual(
    stats.map((s) => s.engine),
    ['000', '001', '002', '003'],
  );
  assert.deepEqual(stats[0]?.values, {
    avg_prompt_throughput: 2549.0,
    avg_generation_throughput: 2.4,
    running: 8,
    waiting: 2,
    gpu_kv_cache_usage: 23.2,
    prefix_cache_hit_rate: 0.0,
  });
  assert.equal(stats[1]?.values['prefix_cache_hit_rate'], 1.5);
  assert.equal(stats[2]?.values['waiting'], 6);
  assert.equal(stats[3]?.values['waiting'], 5);
  assert.equal(stats[0]?.header?.process, 'APIServer pid=2963765');
  assert.equal(stats[0]?.header?.file, 'loggers.py');
  assert.deepEqual(out.problems, []);
});

test('10 PR #1463: DEBUG lines, [Stage-N] prefixes, relative paths give no bogus records', () => {
  const out = parse('10-pr1463-debug-stage-prefix.log');
  assert.equal(out.records.length, 1);
  const boot = single(out, 'bootMarker');
  assert.equal(boot.marker, 'orchestrator-ready');
  assert.equal(boot.line, 1);
  assert.equal(boot.text, '[Orchestrator] All stages initialized successfully');
  assert.deepEqual(out.problems, []);
});

test('11 issue #3039: proposed summary pasted without log prefixes', () => {
  const out = parse('11-issue3039-proposed-overall-timing-breakdown.log');
  assert.equal(out.records.length, 1, '[Timing Breakdown] and its formula lines are not records');
  const overall = single(out, 'overallSummary');
  assert.equal(overall.header, null);
  assert.equal(overall.complete, true);
  assert.equal(Object.keys(overall.fields).length, 14);
  assert.equal(num(overall.fields, 'request_wall_time_ms'), 66497.939);
  assert.equal(num(overall.fields, 'stage_handoff_total_time_ms'), 1.621);
  assert.equal(num(overall.fields, 'stage_0_to_1_ar2diffusion_time_ms'), 1.176);
  assert.equal(num(overall.fields, 'e2e_total_tokens'), 1300);
  assert.deepEqual(out.problems, []);
});

test('12 PR #3069: unmerged "Omni Metrics Summary" layout', () => {
  const out = parse('12-pr3069-unmerged-omni-metrics-summary.log');
  const summary = single(out, 'legacyDict');
  assert.equal(summary.format, METRICS_SUMMARY_FORMAT);
  assert.equal(summary.values['successful_requests'], 5);
  assert.equal(summary.values['total_e2e_time_ms'], 137337.674);
  assert.equal(summary.values['overall_time_breakdown.stage_0_queue_wait_time_ms'], 208619.139);
  assert.equal(summary.values['overall_time_breakdown.stage_0_stage_1_handoff_time_ms'], 7.778);
  assert.equal(summary.values['overall_time_breakdown.stage_1_queue_wait_time_ms'], 0);
  assert.equal(summary.values['average_time_breakdown.average_stage_0_execution_time_ms'], 25357.023);
  assert.equal(summary.complete, false);
  assert.equal(out.problems.length, 1);
  assert.match(out.problems[0]?.message ?? '', /Omni Metrics Summary.*unmerged PR #3069.*cut off at line 26/);
});

test("13 docs: the maintainers' markdown transcription of a 3-stage run", () => {
  const out = parse('13-docs-contributing-metrics-example-tables.log');
  const overall = single(out, 'overallSummary');
  assert.equal(num(overall.fields, 'e2e_wall_time_ms'), 41299.19);
  assert.equal(num(overall.fields, 'e2e_total_tokens'), 5202);
  assert.equal(num(overall.fields, 'e2e_stage_2_wall_time_ms'), 207.496);

  const e2e = single(out, 'requestE2E');
  assert.equal(e2e.requestId, UNTITLED_REQUEST_ID);
  assert.equal(num(e2e.fields, 'transfers_total_time_ms'), 245.895);
  assert.equal(num(e2e.fields, 'transfers_total_kbytes'), 138089.939);

  const stages = single(out, 'stageTable');
  assert.equal(stages.requestId, UNTITLED_REQUEST_ID);
  assert.equal(stages.header, null);
  assert.equal(stages.complete, true);
  assert.deepEqual(
    stages.columns.map((c) => [c.column, c.stageId, c.segment]),
    [
      ['0', 0, 1],
      ['1', 1, 1],
      ['2', 2, 1],
    ],
  );
  const [s0, s1, s2] = stages.columns.map((c) => c.fields);
  assert.ok(s0 !== undefined && s1 !== undefined && s2 !== undefined);
  assert.equal(num(s2, 'audio_generated_frames'), 525525);
  assert.equal(num(s0, 'audio_generated_frames'), 0);
  assert.deepEqual(
    [num(s0, 'stage_gen_time_ms'), num(s1, 'stage_gen_time_ms'), num(s2, 'stage_gen_time_ms')],
    [9910.007, 30379.198, 160.745],
  );
  assert.deepEqual([num(s0, 'num_tokens_in'), num(s1, 'num_tokens_in'), num(s2, 'num_tokens_in')], [4860, 4826, 4384]);
  assert.equal(num(s0, 'postprocess_time_ms'), 256.158);
  assert.deepEqual(stages.rows, [
    'audio_generated_frames',
    'batch_id',
    'batch_size',
    'num_tokens_in',
    'num_tokens_out',
    'postprocess_time_ms',
    'stage_gen_time_ms',
  ]);

  const transfers = single(out, 'transferTable');
  assert.deepEqual(
    transfers.edges.map((e) => [e.edge, e.fromStage, e.toStage]),
    [
      ['0->1', 0, 1],
      ['1->2', 1, 2],
    ],
  );
  assert.deepEqual(numbers(transfers.edges[0]?.fields ?? {}), {
    size_kbytes: 109277.349,
    tx_time_ms: 78.701,
    rx_decode_time_ms: 111.865,
    in_flight_time_ms: 2.015,
  });
  assert.equal(num(transfers.edges[1]?.fields ?? {}, 'rx_decode_time_ms'), 31.706);

  // The transcription names no request id: said once per per-request table.
  assert.equal(out.problems.length, 3);
  for (const p of out.problems) assert.match(p.message, /names no request_id/);
});

test('14 issue #533: legacy single-line summary dict, cut off', () => {
  const out = parse('14-issue533-legacy-summary-dict.log');
  const legacy = single(out, 'legacyDict');
  assert.equal(legacy.format, 'summary dict');
  assert.equal(legacy.values['e2e_requests'], 1);
  assert.equal(legacy.values['final_stage_id'], 2);
  assert.equal(legacy.values['stages.1.tokens'], 4096);
  assert.equal(legacy.values['stages.2.total_time_ms'], 3098.4885692596436);
  assert.equal(legacy.values['transfers.0.total_bytes'], 39589010);
  assert.equal(legacy.values['transfers.1.rx_samples'], 1);
  assert.equal(legacy.complete, false);
  assert.equal(out.problems.length, 1);
  assert.match(
    out.problems[0]?.message ?? '',
    /legacy single-line summary dict \(Dec-2025 format\).*cut off at line 1/,
  );
});

test('15 Timez-zx synthetic fixture: headerless, borderless rows', () => {
  const out = parse('15-timez-zx-parser-test-fixture-SYNTHETIC.log');
  const stages = single(out, 'stageTable');
  assert.equal(out.records.length, 1);
  assert.equal(stages.requestId, 'video-test');
  assert.equal(stages.header?.process, 'API pid=1');
  assert.equal(stages.header?.fileLine, 999);
  assert.deepEqual(
    stages.columns.map((c) => [c.column, c.stageId]),
    [
      ['0', 0],
      ['1', 1],
      ['2', 2],
    ],
  );
  assert.deepEqual(
    stages.columns.map((c) => num(c.fields, 'vllm_ttft_ms')),
    [10, 30, 35],
  );
  assert.deepEqual(
    stages.columns.map((c) => num(c.fields, 'num_tokens_out')),
    [4, 8, 0],
  );
  assert.equal(stages.complete, true, 'a borderless table ends where the next record of its process starts');
  assert.equal(out.problems.length, 1);
  assert.match(out.problems[0]?.message ?? '', /no header row.*3 value columns were taken as stages 0\.\.2/);
  assert.notDeepEqual(stages.columns[0]?.fields['num_tokens_in'], NOT_MEASURED);
});
