// A non-final AR stage under Model Runner V2 + async chunk emits one output, when it stops:
// its vllm_prefill_ms covers its decode steps. Detected from the numbers (upstream-rendered
// logs: vLLM-Omni's own stats code printed them), never shown as prefill alone: summaries,
// the finding, the waterfall, the CLI table and JSON, compare, and the deploy config's evidence.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis, type AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { prefillCoversDecode, PREFILL_DECODE_LABEL } from '../../server/core/analysis/oneOutputStage';
import { percentileOfSorted } from '../../server/core/analysis/distribution';
import { timelineOf } from '../../server/core/analysis/timeline';
import { slowestPhaseOf } from '../../server/core/analysis/slowest';
import { breakdownOf } from '../../server/core/explain/breakdown';
import type { AnalyzedRequest, RequestStage, SplitName } from '../../server/core/analysis/types';
import { measured } from '../../server/core/values';
import { tableReport } from '../../server/core/report/tableReport';
import { analysisJson } from '../../server/core/report/jsonReport';
import { csvRows } from './support/csvRows';
import { runSamplesFromAnalysis } from '../../server/core/compare/runSamples';
import { parseDeployFile } from '../../server/core/deploy/parsedFile';
import { resolveEffectiveConfig } from '../../server/core/deploy/effectiveConfig';
import { oneOutputEvidence } from '../../server/core/deploy/oneOutputEvidence';
import { withDeployEvidence } from '../../server/capture/deployEvidence';
import { formatStageDetail, formatStageNumbers } from '../../server/core/deploy/liveNumbers';
import type { ConfigMap } from '../../server/core/deploy/configTree';

const DIR = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');
const DEPLOY = path.join(__dirname, '..', 'fixtures', 'deploy');

function analyse(file: string): AnalysisSnapshot {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(readFileSync(path.join(DIR, file))));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis.snapshot();
}

interface Expected {
  readonly requests: Record<string, { readonly stages: { readonly table: Record<string, Record<string, unknown>> } }>;
}

function expected(file: string): Expected {
  return JSON.parse(readFileSync(path.join(DIR, file.replace(/\.log$/, '.expected.json')), 'utf8')) as Expected;
}

/** The printed talker vllm_prefill_ms of every request, sorted. */
function printedPrefill(file: string, stage: string): Float64Array {
  const values = Object.values(expected(file).requests)
    .map((r) => r.stages.table[stage]?.['vllm_prefill_ms'])
    .filter((v): v is number => typeof v === 'number');
  return Float64Array.from(values).sort();
}

function stageOf(r: AnalyzedRequest, key: string): RequestStage {
  return r.stages.find((s) => s.stageKey === key) as RequestStage;
}

function effective(name: string): ConfigMap {
  const load = (p: string) => parseDeployFile(p, readFileSync(p, 'utf8'));
  return resolveEffectiveConfig(load(path.join(DEPLOY, name)), (p) => {
    try {
      return load(p);
    } catch {
      return undefined;
    }
  }).root as ConfigMap;
}

for (const file of ['qwen3tts-talker-first-audio-after-fix.log', 'qwen3tts-talker-first-audio-before-fix.log']) {
  describe(`one output per request: ${file}`, () => {
    const snapshot = analyse(file);
    const talker = snapshot.stages.find((s) => s.stageKey === '0')!;
    const codec = snapshot.stages.find((s) => s.stageKey === '1')!;

    test("the request breakdown (Request Timeline, JSON) has no measured 0 ms talker decode, the codec's decode measured", () => {
      for (const r of snapshot.requests) {
        const parts = breakdownOf(r).parts;
        const talkerDecode = parts.find((p) => p.key === '0/decode');
        assert.deepEqual([talkerDecode?.ms, talkerDecode?.state], [null, 'notRecorded'], r.requestId);
        assert.equal(parts.find((p) => p.key === '0/prefill')?.state, 'measured');
        const codecDecode = parts.find((p) => p.key === '1/decode');
        assert.equal(codecDecode?.state, stageOf(r, '1').split.states.decodeMs, r.requestId);
      }
    });

    test('every talker request is detected, no codec request (the codec is the final stage)', () => {
      assert.equal(snapshot.requests.length, 6);
      for (const r of snapshot.requests) {
        assert.equal(prefillCoversDecode(r, stageOf(r, '0')), true, r.requestId);
        assert.equal(prefillCoversDecode(r, stageOf(r, '1')), false, r.requestId);
      }
      assert.equal(talker.oneOutputRequests, 6);
      assert.equal(codec.oneOutputRequests, 0);
    });

    test('the talker prefill is summarised as prefill+decode only, over the printed vllm_prefill_ms', () => {
      const printed = printedPrefill(file, '0');
      assert.equal(printed.length, 6);
      assert.equal(talker.split.prefillMs, undefined, 'never a prefill distribution');
      assert.equal(talker.split.decodeMs, undefined, 'its 0 (or hidden) decode is not a measurement');
      assert.equal(talker.prefillDecodeMs?.count, 6);
      assert.equal(talker.prefillDecodeMs?.p50, percentileOfSorted(printed, 50));
      assert.equal(talker.prefillDecodeMs?.p99, percentileOfSorted(printed, 99));
      assert.equal(talker.splitStates.prefillMs.measured, 0);
      assert.equal(talker.splitStates.decodeMs.measured + talker.splitStates.decodeMs.hidden, 0);
      // The codec's own prefill stays a prefill (after the fix) or not recorded (before it).
      if (file.includes('after')) assert.equal(codec.split.prefillMs?.count, 6);
    });

    test('the finding names the signature, the count and an example with its numbers', () => {
      const f = snapshot.findings.find((x) => x.code === 'prefill-covers-decode');
      assert.ok(f);
      assert.equal(f.stageId, 0);
      assert.equal(f.requestCount, 6);
      assert.equal(f.severity, 'info');
      assert.match(f.message, /^Stage 0 emits one output, when it stops, on 6 of 6 requests/);
      assert.match(f.message, /tokens out, TTFT [\d,.]+ ms of a [\d,.]+ ms stage/);
      assert.match(
        f.message,
        /ranked for slowest phase as one phase, prefill\+decode \(one output\), never as prefill alone/,
      );
      // What it says of the ranking is what the ranking does: the talker's prefill+decode competes as one phase.
      const slowest = slowestPhaseOf(snapshot.stages, 'p50');
      assert.equal(slowest?.stage.stageId, 0);
      assert.equal(slowest?.name, 'prefillDecodeMs');
      assert.doesNotMatch(f.message, /never ranked|not ranked/);
    });

    test('the waterfall draws one prefill+decode segment on the talker, no prefill or decode', () => {
      for (const r of snapshot.requests) {
        const talkerSegments = timelineOf(r).filter((s) => s.stageKey === '0');
        assert.deepEqual(
          talkerSegments.filter((s) => s.phase === 'prefill' || s.phase === 'decode'),
          [],
        );
        const combined = talkerSegments.filter((s) => s.phase === 'prefillDecode');
        assert.equal(combined.length, 1);
        assert.equal(combined[0]!.endMs - combined[0]!.startMs, stageOf(r, '0').split.values.prefillMs);
      }
    });

    test('CLI table: "+decode" beside the number, decode "in prefill"; JSON and CSV say so per request', () => {
      const lines = tableReport(snapshot, { source: file });
      const row = lines.find((l) => /^0\s+6\s+p50/.test(l)) ?? '';
      assert.match(row, /[\d,]+ \+decode\s+in prefill/);
      assert.ok(lines.some((l) => l.includes('stage 0: 6 of 6 requests')));
      const json = analysisJson(snapshot);
      assert.equal(json.splitSummary['0']?.oneOutputRequests, 6);
      assert.ok(
        Math.abs((json.splitSummary['0']?.prefillDecodeMs?.p50 ?? 0) - (talker.prefillDecodeMs?.p50 ?? -1)) < 0.0005,
        "at the log's precision",
      );
      assert.equal(json.splitSummary['0']?.split.prefillMs, undefined);
      // Every request is counted once per split, in the state its own JSON gives it.
      for (const [key, summary] of Object.entries(json.splitSummary)) {
        for (const [name, counts] of Object.entries(summary.states)) {
          const perRequest: Record<string, number> = {};
          for (const r of json.requests) {
            const state = r.stages[key]?.splitState[name as SplitName];
            if (state !== undefined) perRequest[state] = (perRequest[state] ?? 0) + 1;
          }
          const nonZero = Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
          assert.deepEqual(nonZero, perRequest, `stage ${key} ${name}`);
        }
      }
      assert.equal(json.splitSummary['0']?.states.prefillMs.measured, 6);
      assert.equal(json.splitSummary['0']?.states.decodeMs.notRecorded, 6);
      assert.ok(
        json.requests.every(
          (r) => r.stages['0']?.prefillCoversDecode === true && r.stages['1']?.prefillCoversDecode === false,
        ),
      );
      // Per request the talker's decode is not a 0 ms to sum: null, notRecorded; its prefill the printed figure.
      for (const r of json.requests) {
        const talkerJson = r.stages['0']!;
        assert.equal(talkerJson.split.decodeMs, null, r.requestId);
        assert.equal(talkerJson.splitState.decodeMs, 'notRecorded', r.requestId);
        assert.equal(talkerJson.splitState.prefillMs, 'measured', r.requestId);
        assert.equal(
          talkerJson.split.prefillMs,
          expected(file).requests[r.requestId]?.stages.table['0']?.['vllm_prefill_ms'],
        );
      }
      // The per-field summary leaves the printed prefill and decode of a one-output stage out too.
      assert.equal(json.stageSummary['0']?.['vllm_prefill_ms'], undefined);
      assert.equal(json.stageSummary['0']?.['vllm_decode_ms'], undefined);
      assert.equal(json.stageSummary['0']?.['stage_gen_time_ms']?.count, 6);
      const csv = csvRows([...snapshot.requests]);
      const column = csv[0]!.split(',').indexOf('prefill_covers_decode');
      assert.ok(column > 0);
      const rows = csv.slice(1).map((l) => l.split(','));
      const stageRows = rows.filter((cells) => cells[7] !== 'transfer');
      assert.deepEqual(
        stageRows.map((cells) => `${cells[4]}:${cells[column]}`),
        Array.from({ length: 6 }, () => ['0:true', '1:false']).flat(),
      );
      const header = csv[0]!.split(',');
      const decode = header.indexOf('decodeMs');
      const decodeState = header.indexOf('decodeMs_state');
      assert.deepEqual(
        stageRows.filter((cells) => cells[4] === '0').map((cells) => `${cells[decode]}/${cells[decodeState]}`),
        Array.from({ length: 6 }, () => 'notRecorded/notRecorded'),
      );
      assert.ok(
        rows.filter((cells) => cells[7] === 'transfer').every((cells) => cells[column] === ''),
        'does not apply to a transfer row',
      );
    });

    test('compare reads it as the metric prefillDecode, prefill and decode as "one output"', () => {
      const run = runSamplesFromAnalysis(snapshot, false);
      const scope = run.scopes.find((s) => s.scope === '0')!;
      assert.deepEqual([...(scope.metrics.prefillDecode?.values ?? [])], [...printedPrefill(file, '0')]);
      assert.equal(scope.metrics.prefill?.values.length, 0);
      assert.equal(scope.metrics.prefill?.unknown.oneOutput, 6);
      assert.equal(scope.metrics.decode?.unknown.oneOutput, 6);
      assert.equal(
        run.scopes.find((s) => s.scope === '1')!.metrics.prefillDecode,
        undefined,
        'no such metric where the prefill is prefill',
      );
    });
  });
}

test("CLI table: the slowest phase is the talker's prefill+decode, named as one number, not the codec's wait for it", () => {
  const before = tableReport(analyse('qwen3tts-talker-first-audio-before-fix.log'), { source: 'before' });
  const at = before.findIndex((l) => l.startsWith('Slowest phase'));
  assert.deepEqual(before.slice(at, at + 3), [
    "Slowest phase (p50, of a stage's own work; a downstream stage's wait for its input is not ranked): stage 0 prefill+decode (one output) 1,107 ms",
    "  (stage 0's prefill+decode is two phases in one number: the stage emits one output, so its vllm_prefill_ms covers its decode steps)",
    '',
  ]);
  // The codec's decode row, hidden on every request (seed 000), is said among the values left out.
  assert.ok(before.includes('  stage 1 decode: 6 hidden (zero or not measured) of 6'));
  const after = tableReport(analyse('qwen3tts-talker-first-audio-after-fix.log'), { source: 'after' });
  const from = after.findIndex((l) => l.startsWith('Slowest phase'));
  // The talker's 1,268 ms of work outranks the codec's decode (1,115 ms).
  assert.deepEqual(after.slice(from, from + 3), [
    "Slowest phase (p50, of a stage's own work; a downstream stage's wait for its input is not ranked): stage 0 prefill+decode (one output) 1,268 ms",
    "  (stage 0's prefill+decode is two phases in one number: the stage emits one output, so its vllm_prefill_ms covers its decode steps)",
    '',
  ]);
});

test("the talker's intervals between outputs (ITL, time per output unit) are no measurements: left out of its field summaries, counted as one output", () => {
  const snapshot = analyse('qwen3tts-talker-first-audio-before-fix.log');
  const talker = snapshot.stages.find((s) => s.stageKey === '0' && s.replicaId === null)!;
  for (const field of ['vllm_itl_ms', 'time_per_output_unit_ms', 'inter_output_latency_ms'])
    assert.equal(talker.fields[field], undefined, field);
  // The log prints vllm_itl_ms on 4 of its 6 requests (a hidden row on the others), the other two on all 6.
  assert.deepEqual(talker.fieldsNotRecorded, {
    inter_output_latency_ms: { oneOutput: 6 },
    time_per_output_unit_ms: { oneOutput: 6 },
    vllm_itl_ms: { oneOutput: 4 },
  });
  // The codec emits many outputs: its intervals are measurements.
  const codec = snapshot.stages.find((s) => s.stageKey === '1' && s.replicaId === null)!;
  assert.ok((codec.fields['inter_output_latency_ms']?.count ?? 0) > 0);
});

test('a talker prefill printed as no time (negative, NaN): its decode 0 with tokens out is still no measurement', () => {
  const text = readFileSync(path.join(DIR, 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8');
  // The first request's talker prefill printed negative, the second's as NaN (same cell width).
  const mangled = text
    .replace('| vllm_prefill_ms                 | 607.053 |', '| vllm_prefill_ms                 | -15.683 |')
    .replace('| vllm_prefill_ms                 | 4,314.988 |', '| vllm_prefill_ms                 |       NaN |');
  assert.notEqual(mangled, text);
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(mangled));
  analysis.ingest(parser.end());
  analysis.flush();
  const snapshot = analysis.snapshot();
  const [first, second] = snapshot.requests;
  for (const r of [first!, second!]) {
    const talker = stageOf(r, '0');
    assert.deepEqual(
      [talker.split.values.prefillMs, talker.split.states.prefillMs],
      [null, 'notRecorded'],
      r.requestId,
    );
    assert.equal(prefillCoversDecode(r, talker), true, r.requestId);
    const decode = breakdownOf(r).parts.find((p) => p.key === '0/decode');
    assert.deepEqual([decode?.ms, decode?.state], [null, 'notRecorded'], r.requestId);
  }
  const json = analysisJson(snapshot);
  assert.deepEqual(
    json.requests.slice(0, 2).map((r) => [r.stages['0']?.split.decodeMs, r.stages['0']?.splitState.decodeMs]),
    [
      [null, 'notRecorded'],
      [null, 'notRecorded'],
    ],
  );
  assert.equal(json.splitSummary['0']?.oneOutputRequests, 6);
  assert.equal(json.splitSummary['0']?.states.decodeMs.notRecorded, 6);
  assert.equal(json.splitSummary['0']?.states.decodeMs.measured ?? 0, 0);
  assert.equal(snapshot.stages.find((s) => s.stageKey === '0')?.oneOutputRequests, 6);
});

describe('not the signature', () => {
  test('Qwen3-Omni without async chunk: decode measured on thinker and talker, the final code2wav decode 0 is not flagged', () => {
    const snapshot = analyse('qwen3-omni-three-stage-transfers.log');
    assert.deepEqual(
      snapshot.stages.map((s) => s.oneOutputRequests),
      [0, 0, 0],
    );
    assert.equal(
      snapshot.findings.some((f) => f.code === 'prefill-covers-decode'),
      false,
    );
    assert.ok(
      (snapshot.stages[2]?.split.decodeMs?.p50 ?? -1) === 0,
      'code2wav decode is a printed 0 on the final stage',
    );
  });

  test('a stage with one token out, or a decode above 0, or no downstream stage', () => {
    const r = analyse('qwen3tts-talker-first-audio-after-fix.log').requests[0]!;
    const talker = stageOf(r, '0');
    const with1 = (patch: Partial<RequestStage>): RequestStage => ({ ...talker, ...patch });
    assert.equal(prefillCoversDecode(r, with1({ fields: { ...talker.fields, num_tokens_out: measured(1) } })), false);
    assert.equal(
      prefillCoversDecode(
        r,
        with1({ split: { values: { ...talker.split.values, decodeMs: 12.5 }, states: talker.split.states } }),
      ),
      false,
    );
    assert.equal(prefillCoversDecode({ ...r, stages: [talker] }, talker), false);
    // Without num_tokens_out: one output and a TTFT at the stage's end still show it.
    const { num_tokens_out: _gone, ...noTokens } = talker.fields;
    assert.equal(prefillCoversDecode(r, with1({ fields: noTokens })), true);
    assert.equal(prefillCoversDecode(r, with1({ fields: { ...noTokens, output_unit_count: measured(3) } })), false);
  });
});

describe('deploy-config evidence', () => {
  test('qwen3_tts_mrv2.yaml: model_runner v2 from the overlay, async_chunk from its base', () => {
    const text = oneOutputEvidence(effective('qwen3_tts_mrv2.yaml'), path.join(DEPLOY, 'qwen3_tts_mrv2.yaml'), 0);
    assert.equal(
      text,
      'The deploy config qwen3_tts_mrv2.yaml agrees: stage 0 runs with model_runner: v2 (qwen3_tts_mrv2.yaml line 5) and async_chunk: true (qwen3_tts.yaml line 15).',
    );
  });

  test('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml: two overlays deep', () => {
    const text = oneOutputEvidence(
      effective('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'),
      path.join(DEPLOY, 'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'),
      0,
    );
    assert.match(
      text,
      /agrees: stage 0 runs with model_runner: v2 \(qwen3_tts_high_concurrency_mrv2\.yaml line 3\) and async_chunk: true \(qwen3_tts_high_concurrency\.yaml line 13\)/,
    );
  });

  test('qwen3_omni_moe_mrv2.yaml sets model_runner per stage', () => {
    const text = oneOutputEvidence(
      effective('qwen3_omni_moe_mrv2.yaml'),
      path.join(DEPLOY, 'qwen3_omni_moe_mrv2.yaml'),
      1,
    );
    assert.match(
      text,
      /agrees: stage 1 runs with model_runner: v2 \(qwen3_omni_moe_mrv2\.yaml line \d+\) and async_chunk: true \(qwen3_omni_moe\.yaml line 14\)/,
    );
  });

  test('a config that contradicts the numbers says so (V1 by default)', () => {
    const text = oneOutputEvidence(
      effective('qwen3_tts_high_concurrency.yaml'),
      path.join(DEPLOY, 'qwen3_tts_high_concurrency.yaml'),
      0,
    );
    assert.match(
      text,
      /sets model_runner: v1 \(not set: the default\) and async_chunk: true \(qwen3_tts_high_concurrency\.yaml line 13\) for stage 0, while this signature comes with model_runner v2 and async chunk/,
    );
  });

  test('a session matched to a config on disk gets the sentence appended to its finding; others untouched', () => {
    const snapshot = analyse('qwen3tts-talker-first-audio-after-fix.log');
    const out = withDeployEvidence(snapshot.findings, path.join(DEPLOY, 'qwen3_tts.yaml'));
    const f = out.find((x) => x.code === 'prefill-covers-decode')!;
    assert.match(
      f.message,
      / The deploy config qwen3_tts\.yaml agrees: stage 0 runs with model_runner: v2 \(qwen3_tts\.yaml line 14\) and async_chunk: true \(qwen3_tts\.yaml line 15\)\.$/,
    );
    // Stage times that overlap get the config's async_chunk (stage-times-overlap.test.ts), preempted
    // requests the stage's KV-cache settings (preempted-requests.test.ts); the rest nothing.
    const spoken = new Set(['prefill-covers-decode', 'stage-times-overlap', 'preempted-requests']);
    assert.match(
      out.find((x) => x.code === 'preempted-requests')?.message ?? '',
      / The deploy config qwen3_tts\.yaml gives stage 0 gpu_memory_utilization: 0\.3 \(qwen3_tts\.yaml line 65\), max_num_seqs: 64 \(qwen3_tts\.yaml line 64\), max_num_batched_tokens: 32768 \(qwen3_tts\.yaml line 69\)\.$/,
    );
    assert.match(
      out.find((x) => x.code === 'stage-times-overlap')?.message ?? '',
      / The deploy config qwen3_tts\.yaml agrees: async_chunk: true \(qwen3_tts\.yaml line 15\)\.$/,
    );
    assert.deepEqual(
      out.filter((x) => !spoken.has(x.code)),
      snapshot.findings.filter((x) => !spoken.has(x.code)),
    );
    assert.equal(withDeployEvidence(snapshot.findings, path.join(DEPLOY, 'missing.yaml')), snapshot.findings);
  });
});

test('deploy-YAML hints: a one-output stage reads prefill+decode, never prefill', () => {
  assert.equal(
    formatStageNumbers({
      stageId: 0,
      ttftP50Ms: 1271.2,
      prefillP50Ms: null,
      prefillDecodeP50Ms: 1268.4,
      queuedP50Ms: 0.357,
      n: 6,
      ttftNotRecorded: false,
    }),
    'p50 prefill+decode 1.27 s · TTFT 1.27 s',
  );
  assert.equal(
    formatStageDetail({
      stageId: 0,
      ttftP50Ms: 1271.2,
      prefillP50Ms: null,
      prefillDecodeP50Ms: 1268.4,
      decodeP50Ms: 0,
      queuedP50Ms: 0.357,
      n: 6,
      ttftNotRecorded: false,
    }),
    `TTFT p50 1,271 ms · ${PREFILL_DECODE_LABEL} p50 1,268 ms · queued p50 0.4 ms (n=6)`,
  );
});
