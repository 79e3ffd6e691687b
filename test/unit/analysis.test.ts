import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentileOfSorted, distributionOf } from '../../server/core/analysis/distribution';
import { SampleSet } from '../../server/core/analysis/sampleSet';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import type {
  BootMarkerRecord,
  LogRecord,
  StageColumn,
  StageTableRecord,
  RequestE2ERecord,
  OmniTimingRecord,
} from '../../server/core/records';
import type { FieldMap } from '../../server/core/values';
import { measured, NOT_MEASURED } from '../../server/core/values';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';

// ------------------------------------------------------------ helpers building records

type Spec = Record<string, number | null | string>;

function fields(spec: Spec): FieldMap {
  const out: Record<string, FieldMap[string]> = {};
  for (const [k, v] of Object.entries(spec))
    out[k] = v === null ? NOT_MEASURED : typeof v === 'string' ? { state: 'text', value: v } : measured(v);
  return out;
}

function stageTable(requestId: string, line: number, columns: Record<string, Spec>): StageTableRecord {
  const cols: StageColumn[] = Object.entries(columns).map(([column, spec]) => ({
    column,
    stageId: Number(column.split('_')[0]),
    segment: Number(column.split('_')[1] ?? 1),
    fields: fields(spec),
  }));
  return {
    kind: 'stageTable',
    requestId,
    identity: { request_id: requestId },
    columns: cols,
    rows: [],
    complete: true,
    line,
    header: null,
  };
}

function e2e(requestId: string, line: number, spec: Spec): RequestE2ERecord {
  return {
    kind: 'requestE2E',
    requestId,
    identity: { request_id: requestId },
    fields: fields(spec),
    complete: true,
    line,
    header: null,
  };
}

function boot(line: number): BootMarkerRecord {
  return {
    kind: 'bootMarker',
    marker: 'api-server-version',
    text: 'vLLM API server version 0.11.0',
    line,
    header: null,
  };
}

function run(records: LogRecord[], excludeCold = false, stageRoles?: Readonly<Record<string, string>>) {
  const a = new StreamAnalysis({ excludeCold, ...(stageRoles === undefined ? {} : { stageRoles: () => stageRoles }) });
  a.ingest({ records, problems: [] });
  a.flush();
  return a.snapshot();
}

// A talker -> codec request on the phase-split build with the input split.
function ttsRequest(id: string, line: number, codec: Spec = {}): StageTableRecord {
  return stageTable(id, line, {
    '0': {
      vllm_queued_ms: 0.412,
      vllm_prefill_ms: 38.905,
      vllm_decode_ms: 1139.25,
      vllm_ttft_ms: 41.25,
      vllm_input_wait_ms: null,
      vllm_ready_queued_ms: null,
      serving_time_to_first_output_ms: 95.321,
      output_unit_count: 51,
      stage_gen_time_ms: 1234.567,
    },
    '1': {
      vllm_queued_ms: 120.5,
      vllm_input_wait_ms: 118.25,
      vllm_ready_queued_ms: 2.25,
      vllm_prefill_ms: 17.336,
      vllm_decode_ms: 1098.614,
      vllm_ttft_ms: 18.4,
      serving_time_to_first_output_ms: 142.605,
      output_unit_count: 5,
      stage_gen_time_ms: 1301.884,
      ...codec,
    },
  });
}

// ------------------------------------------------------------ percentiles

test('percentiles interpolate linearly between closest ranks, as numpy', () => {
  // numpy.percentile([1, 2, 3, 4], [50, 90, 99]) -> 2.5, 3.7, 3.97
  const sorted = [1, 2, 3, 4];
  assert.equal(percentileOfSorted(sorted, 50), 2.5);
  assert.ok(Math.abs(percentileOfSorted(sorted, 90) - 3.7) < 1e-12);
  assert.ok(Math.abs(percentileOfSorted(sorted, 99) - 3.97) < 1e-12);
  assert.deepEqual(distributionOf([7]), { count: 1, mean: 7, p50: 7, p90: 7, p99: 7, max: 7 });
  assert.equal(distributionOf([]), null);
  // numpy.percentile([10, 0, 30, 20, 100], 90) -> 72.0
  assert.equal(distributionOf([10, 0, 30, 20, 100])?.p90, 72);
});

test('SampleSet merges late samples and matches a full sort', () => {
  const set = new SampleSet();
  const all: number[] = [];
  let x = 12345;
  for (let round = 0; round < 12; round++) {
    for (let i = 0; i < (round % 3 === 0 ? 3000 : 7); i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const v = (x % 10000) / 7;
      set.add(v);
      all.push(v);
    }
    const got = set.distribution();
    const want = distributionOf(all);
    assert.ok(got && want);
    assert.ok(Math.abs(got.mean - want.mean) < 1e-9, 'mean (summation order differs)');
    assert.deepEqual({ ...got, mean: 0 }, { ...want, mean: 0 });
  }
});

test('SampleSet: every rank after merges whose rest comes from the body, from the tail, and from both in turn', () => {
  const orders: [string, (i: number) => number][] = [
    ['ascending: the tail outlasts the body', (i) => i / 8],
    ['descending: the body outlasts the tail', (i) => (20_000 - i) / 8],
    ['alternating halves', (i) => (Math.floor(i / 2048) % 2 === 0 ? i : 20_000 - i) / 4],
  ];
  for (const [label, valueAt] of orders) {
    const set = new SampleSet();
    const all: number[] = [];
    for (let i = 0; i < 3 * 4096 + 777; i++) {
      set.add(valueAt(i));
      all.push(valueAt(i));
    }
    all.sort((a, b) => a - b);
    for (let k = 0; k < all.length; k++) assert.equal(set.at(k), all[k], `${label}: rank ${k}`);
  }
});

test('SampleSet: 3-decimal samples (sorted as thousandths), then one that is not, with queries between', () => {
  const set = new SampleSet();
  const all: number[] = [];
  let x = 987654;
  const next = (): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  const check = (label: string): void => {
    const sorted = [...all].sort((a, b) => a - b);
    for (let k = 0; k < sorted.length; k += 97) assert.equal(set.at(k), sorted[k], `${label}: rank ${k}`);
    assert.equal(set.at(sorted.length - 1), sorted[sorted.length - 1], `${label}: the largest`);
    assert.equal(set.distribution()?.p99, distributionOf(all)?.p99, `${label}: p99`);
  };
  // Thousandths, negative ones and large ones among them, queried every 1,000 samples so that
  // a sorted tail part meets a fresh one.
  for (let i = 0; i < 9_000; i++) {
    const v = ((next() % 4_000_000) - 1_000_000) / 1000;
    set.add(v);
    all.push(v);
    if (i % 1000 === 999) check(`thousandths, ${i + 1} samples`);
  }
  // -0 and a value with more decimals: the set goes on in doubles, its order unchanged.
  for (const v of [-0, 1 / 3, 2_147_483.647, 123.4567]) {
    set.add(v);
    all.push(v);
  }
  for (let i = 0; i < 5_000; i++) {
    const v = (next() % 100_000) / 7;
    set.add(v);
    all.push(v);
  }
  check('then doubles');
});

/**
 * Bytes of the typed arrays made while `run` runs (views over existing memory not counted): the
 * sets make theirs through the global constructors, swapped here for counting subclasses.
 */
function typedBytesMadeBy(run: () => void): number {
  let made = 0;
  const saved = { Int32Array: globalThis.Int32Array, Float64Array: globalThis.Float64Array };
  const counting = <T extends Int32ArrayConstructor | Float64ArrayConstructor>(Base: T): T =>
    class extends (Base as Int32ArrayConstructor) {
      constructor(...args: unknown[]) {
        super(...(args as []));
        if (typeof args[0] === 'number' || typeof args[0] === 'object') {
          if (!(args[0] instanceof ArrayBuffer)) made += this.byteLength;
        }
      }
    } as unknown as T;
  globalThis.Int32Array = counting(saved.Int32Array);
  globalThis.Float64Array = counting(saved.Float64Array);
  try {
    run();
  } finally {
    globalThis.Int32Array = saved.Int32Array;
    globalThis.Float64Array = saved.Float64Array;
  }
  return made;
}

/** `count` samples in a fixed pseudo-random order (Park-Miller, exact in doubles): 3-decimal values, up to `distinct` of them. */
function samplesOf(count: number, distinct: number): number[] {
  let x = 4242;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 48271) % 2147483647;
    out.push((x % distinct) / 1000);
  }
  return out;
}

test('SampleSet: a merge makes memory for the new samples only, not a copy of every sample before them', () => {
  // A merge into a new array each time makes ~29x the samples' memory at 200k, 2.5x as much per sample as at 50k.
  for (const [label, distinct] of [
    ['all distinct', 1_000_000_000],
    ['as runs (60 values)', 60],
    ['runs that become every sample', 20_000],
  ] as const) {
    const perSample = (count: number): number => {
      const samples = samplesOf(count, distinct);
      const set = new SampleSet();
      const made = typedBytesMadeBy(() => {
        for (const v of samples) set.add(v);
      });
      const sorted = [...samples].sort((a, b) => a - b);
      for (let k = 0; k < count; k += 997) assert.equal(set.at(k), sorted[k], `${label}: rank ${k} of ${count}`);
      return made / count;
    };
    const few = perSample(50_000);
    const many = perSample(200_000);
    assert.ok(
      many <= few * 1.15,
      `${label}: ${many.toFixed(1)} bytes made per sample of 200k, ${few.toFixed(1)} of 50k`,
    );
  }
});

test('SampleSet keeping its tail makes about the memory its samples take, its tail once', () => {
  const samples = samplesOf(200_000, 1_000_000_000);
  const kept = new SampleSet(true);
  const made = typedBytesMadeBy(() => {
    for (const v of samples) kept.add(v);
  });
  // 4 bytes a sample (thousandths); the first 16 KB chunk grown from 16 samples and the last one's
  // room; one 32 KB tail grown from 8 samples. Letting the tail go at each merge makes ~20 bytes a sample.
  assert.ok(made <= 4 * samples.length + 3 * 16_384 + 2 * 32_768, `${made} bytes made for ${samples.length} samples`);
  const plain = new SampleSet();
  for (const v of samples) plain.add(v);
  assert.deepEqual(kept.distribution(), plain.distribution());
  assert.deepEqual(kept.copy().distribution(), plain.distribution());
});

// ------------------------------------------------------------ phase split

test('split: measured values, None, hidden rows and the inferred zero are kept apart', () => {
  const snap = run([
    ttsRequest('r1', 1),
    // ready queued hidden (0 on every stage) while input wait is measured: inferred 0
    stageTable('r2', 50, {
      '0': { vllm_queued_ms: 1, vllm_prefill_ms: 30, vllm_ttft_ms: 31, vllm_input_wait_ms: null, output_unit_count: 3 },
      '1': {
        vllm_queued_ms: 50.5,
        vllm_input_wait_ms: 50.5,
        vllm_prefill_ms: 10,
        vllm_ttft_ms: 61,
        output_unit_count: 2,
      },
    }),
  ]);
  const [r1, r2] = snap.requests;
  assert.ok(r1 && r2);
  assert.deepEqual(r1.stages[0]?.split.values, {
    queuedMs: 0.412,
    inputWaitMs: null,
    readyQueuedMs: null,
    prefillMs: 38.905,
    decodeMs: 1139.25,
    ttftMs: 41.25,
  });
  assert.equal(r1.stages[0]?.split.states.inputWaitMs, 'notMeasured');
  assert.equal(r1.stages[1]?.split.values.inputWaitMs, 118.25);
  assert.equal(r2.stages[1]?.split.values.readyQueuedMs, 0);
  assert.equal(r2.stages[1]?.split.states.readyQueuedMs, 'inferred');
  assert.equal(r2.stages[0]?.split.states.readyQueuedMs, 'hidden');
  assert.equal(r2.stages[0]?.split.states.decodeMs, 'hidden');
  assert.equal(r2.stages[0]?.split.values.decodeMs, null);

  // Only measured/inferred values enter the percentiles; None and hidden are counted.
  const stage1 = snap.stages.find((s) => s.stageKey === '1');
  assert.equal(stage1?.split.readyQueuedMs?.count, 2);
  assert.equal(stage1?.split.readyQueuedMs?.p50, 1.125);
  const stage0 = snap.stages.find((s) => s.stageKey === '0');
  assert.equal(stage0?.split.inputWaitMs, undefined);
  assert.equal(stage0?.splitStates.inputWaitMs.notMeasured, 2);
  assert.equal(stage0?.split.decodeMs?.count, 1);
  assert.equal(stage0?.splitStates.decodeMs.hidden, 1);
});

test('ttft-not-recorded: codec TTFT 0 with no prefill is null, not 0, and is named', () => {
  const records: LogRecord[] = [];
  for (let i = 0; i < 18; i++) {
    records.push(
      stageTable(`speech-${i}`, i * 40 + 1, {
        '0': {
          vllm_queued_ms: 0.5,
          vllm_prefill_ms: 900 + i,
          vllm_ttft_ms: 905 + i,
          serving_time_to_first_output_ms: 95,
          output_unit_count: 51,
        },
        '1': {
          vllm_queued_ms: 80 + i,
          vllm_prefill_ms: null,
          vllm_ttft_ms: 0,
          serving_time_to_first_output_ms: 140 + i,
          output_unit_count: 5,
        },
      }),
    );
  }
  const snap = run(records);
  const codec = snap.requests[3]?.stages[1];
  assert.equal(codec?.split.values.ttftMs, null);
  assert.equal(codec?.split.states.ttftMs, 'notRecorded');
  const stage1 = snap.stages.find((s) => s.stageKey === '1');
  assert.equal(stage1?.split.ttftMs, undefined, 'no TTFT distribution made of zeros');
  assert.equal(stage1?.fields['vllm_ttft_ms'], undefined, 'nor a field distribution of them');
  assert.equal(stage1?.fields['serving_time_to_first_output_ms']?.count, 18);
  assert.equal(stage1?.splitStates.ttftMs.notRecorded, 18);
  const finding = snap.findings.find((f) => f.code === 'ttft-not-recorded');
  assert.equal(finding?.stageId, 1);
  assert.equal(finding?.requestIds.length, 18);
  assert.match(finding?.message ?? '', /18 of 18 requests/);
  // Stage 0 is fine.
  assert.equal(snap.stages.find((s) => s.stageKey === '0')?.split.ttftMs?.p50, 913.5);
});

test('a codec with its own prefill (build with the fix) is not flagged', () => {
  const snap = run([ttsRequest('ok', 1, { vllm_ttft_ms: 4000, vllm_prefill_ms: 500 })]);
  assert.equal(snap.findings.filter((f) => f.code === 'ttft-not-recorded').length, 0);
  assert.equal(snap.requests[0]?.stages[1]?.split.values.ttftMs, 4000);
});

test('split-mismatch beyond 0.002 ms, not within printing error', () => {
  const snap = run([
    ttsRequest('exact', 1, { vllm_queued_ms: 120.501, vllm_input_wait_ms: 118.25, vllm_ready_queued_ms: 2.25 }), // off by 0.001: rounding
    ttsRequest('bad', 60, { vllm_queued_ms: 130, vllm_input_wait_ms: 118.25, vllm_ready_queued_ms: 2.25 }),
  ]);
  const f = snap.findings.find((x) => x.code === 'split-mismatch');
  assert.deepEqual(f?.requestIds, ['bad']);
  assert.equal(f?.stageId, 1);
  assert.match(f?.message ?? '', /-9\.5 ms on bad/);
});

test('negative-interval on stage fields and e2e fields', () => {
  const snap = run([
    e2e('neg', 1, { e2e_total_ms: 100, transfers_total_time_ms: -154.683 }),
    ttsRequest('neg', 10, { vllm_prefill_ms: -3 }),
  ]);
  const found = snap.findings.filter((f) => f.code === 'negative-interval');
  assert.deepEqual(found.map((f) => f.stageId).sort(), [1, null].sort());
  assert.match(found.find((f) => f.stageId === null)?.message ?? '', /transfers_total_time_ms = -154\.683/);
  assert.equal(snap.requests.length, 1, 'E2E and stage table of one call make one request');
});

test('negative-interval: a printed -inf is not a number, not a duration below zero', () => {
  const snap = run([
    e2e('inf', 1, { e2e_total_ms: 100, transfers_total_time_ms: Number.NEGATIVE_INFINITY }),
    ttsRequest('inf', 10, { stage_gen_time_ms: Number.NEGATIVE_INFINITY }),
  ]);
  assert.deepEqual(
    snap.findings.filter((f) => f.code === 'negative-interval'),
    [],
  );
  // Left out as not a number instead.
  assert.deepEqual(snap.stages.find((s) => s.stageId === 1)?.fieldsNotRecorded['stage_gen_time_ms'], { nonFinite: 1 });
  // Beside a finite negative one, the finding names the finite one as the worst.
  const both = run([ttsRequest('both', 10, { stage_gen_time_ms: Number.NEGATIVE_INFINITY, vllm_prefill_ms: -3 })]);
  const found = both.findings.filter((f) => f.code === 'negative-interval');
  assert.equal(found.length, 1);
  assert.match(found[0]?.message ?? '', /worst vllm_prefill_ms = -3 ms on both/);
});

test('queued-includes-input-wait on a downstream stage of a build without the split', () => {
  const snap = run([
    stageTable('old', 1, {
      '0': { vllm_queued_ms: 0.4, vllm_prefill_ms: 30, vllm_ttft_ms: 31, output_unit_count: 3 },
      '1': { vllm_queued_ms: 86443, vllm_prefill_ms: 12, vllm_ttft_ms: 86460, output_unit_count: 3 },
    }),
  ]);
  const f = snap.findings.find((x) => x.code === 'queued-includes-input-wait');
  assert.equal(f?.stageId, 1);
  assert.deepEqual(f?.requestIds, ['old']);
  assert.match(f?.message ?? '', /86,443 ms/);
  assert.equal(snap.findings.filter((x) => x.code === 'queued-includes-input-wait' && x.stageId === 0).length, 0);
  // A downstream queued time of 0 held no wait at all: not flagged.
  const zero = run([
    stageTable('zero', 1, {
      '0': { vllm_queued_ms: 0.4, vllm_prefill_ms: 30, vllm_ttft_ms: 31, output_unit_count: 3 },
      '1': { vllm_queued_ms: 0, vllm_prefill_ms: 12, vllm_ttft_ms: 13, output_unit_count: 3 },
    }),
  ]);
  assert.equal(
    zero.findings.some((x) => x.code === 'queued-includes-input-wait'),
    false,
  );
});

test('queued-includes-input-wait: a downstream queued time under 1 ms holds no wait worth telling apart', () => {
  const downstreamQueued = (ms: number) => ({
    '0': { vllm_queued_ms: 0.4, vllm_prefill_ms: 30, vllm_ttft_ms: 31, output_unit_count: 3 },
    '1': { vllm_queued_ms: ms, vllm_prefill_ms: 12, vllm_ttft_ms: ms + 13, output_unit_count: 3 },
  });
  const snap = run([
    stageTable('sub-ms', 1, downstreamQueued(0.999)),
    stageTable('one-ms', 1, downstreamQueued(1)),
    stageTable('tiny', 1, downstreamQueued(0.35)),
  ]);
  const f = snap.findings.find((x) => x.code === 'queued-includes-input-wait');
  assert.deepEqual(f?.requestIds, ['one-ms']);
  assert.match(f?.message ?? '', /a vllm_queued_ms of 1 ms or more without the input-wait split on 1 of 3 requests/);

  // Upstream-rendered: the Qwen3-Omni talker's queued times are all 0.35 ms, no finding; the
  // Qwen3-TTS codec's (85-132 ms, no split printed) keep it on every request.
  const fixture = (name: string) => analysedLog(path.join(__dirname, '../fixtures/upstream-rendered', name));
  const omni = fixture('qwen3-omni-three-stage-transfers.log');
  assert.equal(
    omni.findings.some((x) => x.code === 'queued-includes-input-wait'),
    false,
  );
  const tts = fixture('qwen3tts-talker-first-audio-before-fix.log').findings.find(
    (x) => x.code === 'queued-includes-input-wait',
  );
  assert.deepEqual([tts?.stageId, tts?.requestIds.length], [1, 6]);
  assert.match(
    tts?.message ?? '',
    /on 6 of 6 requests: .*\(largest 131\.665 ms on speech-fbd4440a23242784cd92f847226a76f8\)/,
  );
});

test('boots are numbered and the first request after each is cold', () => {
  const snap = run([
    ttsRequest('before-any-boot', 1),
    boot(10),
    boot(11), // two marker lines of the same start
    ttsRequest('cold-1', 20, { vllm_queued_ms: 86443, vllm_input_wait_ms: 86440.5, vllm_ready_queued_ms: 2.5 }),
    ttsRequest('warm-1', 60),
    ttsRequest('warm-2', 100),
    ttsRequest('warm-3', 140),
    boot(180),
    ttsRequest('cold-2', 190),
    ttsRequest('warm-4', 230),
  ]);
  assert.deepEqual(
    snap.requests.map((r) => [r.requestId, r.boot, r.cold]),
    [
      ['before-any-boot', 0, false],
      ['cold-1', 1, true],
      ['warm-1', 1, false],
      ['warm-2', 1, false],
      ['warm-3', 1, false],
      ['cold-2', 2, true],
      ['warm-4', 2, false],
    ],
  );
  assert.equal(snap.boots, 2);
  const cold = snap.findings.find((f) => f.code === 'cold-start');
  assert.deepEqual(cold?.requestIds, ['cold-1', 'cold-2']);
  assert.match(
    cold?.message ?? '',
    /request cold-1, stage 1 input wait 1 min 26 s against a stage median of 118 ms: its wait for the upstream stages' output, so the cold cost is theirs\./,
  );

  const warmOnly = run(
    [
      boot(1),
      ttsRequest('c', 2, { vllm_queued_ms: 86443, vllm_input_wait_ms: 86440.5, vllm_ready_queued_ms: 2.5 }),
      ttsRequest('w', 40),
    ],
    true,
  );
  assert.equal(
    warmOnly.stages.find((s) => s.stageKey === '1')?.split.inputWaitMs?.max,
    118.25,
    'cold request left out with excludeCold',
  );
  assert.equal(warmOnly.requests.length, 2, 'but still listed');
});

test("a cold request's largest phase is an upstream stage's own one before a downstream wait for it", () => {
  const coldTalker = (): StageTableRecord => {
    const r = ttsRequest('cold-1', 20, {
      vllm_queued_ms: 86443,
      vllm_input_wait_ms: 86440.5,
      vllm_ready_queued_ms: 2.5,
    });
    const [talker, ...rest] = r.columns;
    return talker === undefined
      ? r
      : { ...r, columns: [{ ...talker, fields: { ...talker.fields, vllm_prefill_ms: measured(400) } }, ...rest] };
  };
  const snap = run([boot(10), coldTalker(), ttsRequest('warm-1', 60), ttsRequest('warm-2', 100)]);
  const message = snap.findings.find((f) => f.code === 'cold-start')?.message ?? '';
  // Stage 1's wait (731x its median) is stage 0's time seen from downstream: stage 0's prefill (10x) is named.
  assert.match(message, /Largest: request cold-1, stage 0 prefill 400 ms against a stage median of 38\.9 ms\.$/);
  // With the pipeline's roles known (a deploy config, a file name), the stage is named as the views name it.
  const named = run([boot(10), coldTalker(), ttsRequest('warm-1', 60), ttsRequest('warm-2', 100)], false, {
    '0': 'talker',
    '1': 'code2wav',
  });
  assert.match(
    named.findings.find((f) => f.code === 'cold-start')?.message ?? '',
    /Largest: request cold-1, stage 0 · talker prefill 400 ms against a stage median of 38\.9 ms\.$/,
  );

  // No input-wait split: the downstream queued time holds the wait, and says so when it is all that stands out.
  const noSplit = { vllm_queued_ms: 5000, vllm_input_wait_ms: null, vllm_ready_queued_ms: null };
  const old = run([
    boot(10),
    ttsRequest('cold-1', 20, noSplit),
    ttsRequest('warm-1', 60, { vllm_input_wait_ms: null, vllm_ready_queued_ms: null }),
    ttsRequest('warm-2', 100, { vllm_input_wait_ms: null, vllm_ready_queued_ms: null }),
  ]);
  assert.match(
    old.findings.find((f) => f.code === 'cold-start')?.message ?? '',
    /stage 1 queued 5\.00 s against a stage median of 121 ms: a downstream stage's queued time, which includes its wait for the upstream stages' output\.$/,
  );
});

test('time to first output added by a stage is computed within each request', () => {
  const snap = run([
    stageTable('a', 1, {
      '0': { serving_time_to_first_output_ms: 100, output_unit_count: 1 },
      '1': { serving_time_to_first_output_ms: 150, output_unit_count: 1 },
      '2': { serving_time_to_first_output_ms: 400, output_unit_count: 1 },
    }),
    stageTable('b', 30, {
      '0': { serving_time_to_first_output_ms: 300, output_unit_count: 1 },
      '1': { serving_time_to_first_output_ms: 310, output_unit_count: 1 },
      '2': { serving_time_to_first_output_ms: 0, output_unit_count: 0 },
    }),
  ]);
  assert.deepEqual(snap.requests[0]?.derived.addedTimeToFirstOutputMs, { '1': 50, '2': 250 });
  assert.deepEqual(snap.requests[1]?.derived.addedTimeToFirstOutputMs, { '1': 10 }, '0.0 means no output: no delta');
  // p50 of within-request deltas (10, 50) is 30; the difference of the stage medians (230 - 200) would be 30 too by chance,
  // so check p90, where the two methods differ: deltas -> 46; medians-of-p90 -> 290 - 280 = 10.
  assert.equal(snap.stages.find((s) => s.stageKey === '1')?.addedTimeToFirstOutputMs?.p90, 46);
});

test('diffusion stage: no LLM split, no TTFT finding; legacy _ms timings flagged', () => {
  const snap = run([
    stageTable('img', 1, {
      '0': {
        vllm_queued_ms: 2,
        vllm_prefill_ms: 300,
        vllm_ttft_ms: 302,
        output_unit_count: 1,
        diffusion_engine_exec_time_ms: null,
      },
      '1': {
        diffusion_engine_exec_time_ms: 8431,
        num_inference_steps: 50,
        image_pixels: 1048576,
        vllm_queued_ms: null,
        output_unit_count: 1,
        stage_gen_time_ms: 8612,
      },
    }),
  ]);
  const s1 = snap.requests[0]?.stages[1];
  assert.equal(s1?.kind, 'diffusion');
  assert.equal(s1?.split.states.queuedMs, 'notMeasured');
  assert.equal(
    snap.findings.some((f) => f.code === 'ttft-not-recorded'),
    false,
  );
  assert.equal(snap.findings.find((f) => f.code === 'diffusion-zero-ambiguous')?.stageId, 1);
});

test("diffusion-ttft-default: a diffusion stage's vllm_ttft_ms 0 beside an AR stage's TTFT is not recorded, not 0 ms", () => {
  const snap = run(
    [1, 2, 3].map((i) =>
      stageTable(`img-${i}`, i * 40, {
        '0': { vllm_queued_ms: 2, vllm_prefill_ms: 300, vllm_ttft_ms: 302 + i, output_unit_count: 40 },
        '1': {
          vllm_ttft_ms: 0,
          diffusion_engine_exec_time_s: 8.4 + i / 10,
          num_inference_steps: 50,
          serving_time_to_first_output_ms: 9000 + i,
          output_unit_count: 1,
        },
      }),
    ),
  );
  for (const r of snap.requests) {
    assert.equal(r.stages[1]?.kind, 'diffusion');
    assert.equal(r.stages[1]?.split.values.ttftMs, null);
    assert.equal(r.stages[1]?.split.states.ttftMs, 'notRecorded');
    assert.equal(r.stages[0]?.split.states.ttftMs, 'measured');
  }
  const diffusion = snap.stages.find((s) => s.stageKey === '1');
  assert.equal(diffusion?.split.ttftMs, undefined);
  assert.equal(diffusion?.fields['vllm_ttft_ms'], undefined);
  assert.equal(diffusion?.splitStates.ttftMs.notRecorded, 3);
  const finding = snap.findings.find((f) => f.code === 'diffusion-ttft-default');
  assert.equal(finding?.stageId, 1);
  assert.equal(finding?.requestCount, 3);
  assert.equal(finding?.severity, 'info');
  assert.match(finding?.message ?? '', /^Stage 1 is a diffusion stage and printed vllm_ttft_ms 0 on 3 of 3 requests/);
  assert.equal(
    snap.findings.some((f) => f.code === 'ttft-not-recorded'),
    false,
    'not the codec signature',
  );
  // A diffusion TTFT that is not 0 is what was printed.
  const printed = run([
    stageTable('img-9', 1, { '0': { vllm_ttft_ms: 5 }, '1': { vllm_ttft_ms: 7, num_inference_steps: 50 } }),
  ]);
  assert.equal(printed.requests[0]?.stages[1]?.split.values.ttftMs, 7);
});

test('without stage tables, stages come from OmniTiming and the missing DEBUG table is explained', () => {
  const timing: OmniTimingRecord = {
    kind: 'omniTiming',
    requestId: 'x',
    identity: { request_id: 'x' },
    totalS: 2.71,
    preprocessS: 0.01,
    engineS: 2.7,
    stages: [
      { stageId: 0, label: null, seconds: 1.23 },
      { stageId: 1, label: null, seconds: 1.3 },
    ],
    transfers: [],
    ar2diffusionMs: null,
    extra: {},
    line: 5,
    header: null,
  };
  const snap = run([e2e('x', 1, { e2e_total_ms: 2714.781 }), timing]);
  assert.equal(snap.requests.length, 1);
  assert.equal(snap.stages.find((s) => s.stageKey === '1')?.fields['omni_timing_stage_s']?.p50, 1.3);
  assert.equal(snap.findings.find((f) => f.code === 'stage-tables-missing')?.requestIds[0], 'x');
});
