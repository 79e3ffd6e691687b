// The additive breakdown of one request (docs/breakdown.md), on requests written as the
// server prints them and read back by the real parser; expectations computed by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { breakdownOf } from '../../server/core/explain/breakdown';
import { timelineOf } from '../../server/core/analysis/timeline';
import type { RequestBreakdown } from '../../server/core/explain/types';
import { analyse, analyseSpecs, asyncChunk, int, SEQUENTIAL, type RequestSpec } from './support/explainLogs';

const close = (actual: number | null, expected: number, what: string): void => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-6, `${what}: ${actual} != ${expected}`);
};

function part(b: RequestBreakdown, key: string) {
  const p = b.parts.find((x) => x.key === key);
  assert.ok(p !== undefined, `part ${key} in ${b.parts.map((x) => x.key).join(', ')}`);
  return p;
}

function identityHolds(b: RequestBreakdown): void {
  if (b.totalMs === null) return;
  let sum = 0;
  for (const p of b.parts) if (p.ms !== null) sum += p.ms;
  assert.ok(
    Math.abs(sum - b.overlapMs + (b.residualMs ?? NaN) - b.totalMs) < 1e-6,
    `identity: ${sum} - ${b.overlapMs} + ${b.residualMs} = ${b.totalMs}`,
  );
}

test('full payload: every part measured and placed, no overlap, the residual is the unexplained gaps', () => {
  const [request] = analyseSpecs([SEQUENTIAL]).requests;
  const b = breakdownOf(request!);
  assert.equal(b.totalMs, 1000);
  assert.equal(b.totalSource, 'e2e_total_ms');
  assert.deepEqual(
    b.parts.map((p) => [p.key, p.ms, p.state]),
    [
      ['preprocess', 20, 'measured'],
      ['0/queued', 5, 'measured'],
      ['0/prefill', 95, 'measured'],
      ['0/decode', 300, 'measured'],
      ['0/genOther', 20, 'reconstructed'],
      ['0->1/postprocess', 10, 'measured'],
      ['0->1/tx', 8, 'measured'],
      ['0->1/inFlight', 2, 'measured'],
      ['0->1/rxDecode', 5, 'measured'],
      ['1/inputWait', 2, 'measured'],
      ['1/readyQueued', 3, 'measured'],
      ['1/prefill', 50, 'measured'],
      ['1/decode', 400, 'measured'],
      ['1/genOther', 15, 'reconstructed'],
      ['finalOutput', 50, 'reconstructed'],
    ],
  );
  assert.deepEqual(
    [
      part(b, '0/queued').startMs,
      part(b, '0/prefill').startMs,
      part(b, '0/decode').startMs,
      part(b, '0/genOther').endMs,
    ],
    [30, 35, 130, 450],
  );
  assert.deepEqual(
    [part(b, '1/inputWait').startMs, part(b, '1/prefill').startMs, part(b, '1/genOther').endMs],
    [480, 485, 950],
  );
  assert.deepEqual([part(b, 'finalOutput').startMs, part(b, 'finalOutput').endMs], [950, 1000]);
  assert.equal(part(b, '0->1/tx').startMs, null, 'a hand-off has no measured place');
  assert.equal(b.overlapMs, 0);
  assert.equal(b.overlapPlacement, 'measured');
  // Gaps [20, 30] and [450, 480] = 40 ms, of which the hand-off explains 25.
  close(b.residualMs, 15, 'residual');
  identityHolds(b);
  assert.deepEqual(
    b.stageSpans.map((s) => [s.stageKey, s.startMs, s.endMs, s.placement]),
    [
      ['0', 30, 450, 'measured'],
      ['1', 480, 950, 'measured'],
    ],
  );
});

test('async chunk: overlapping stages are counted once, the overlap shown; nothing is left over', () => {
  const [request] = analyseSpecs([asyncChunk('speech-async')]).requests;
  const b = breakdownOf(request!);
  assert.deepEqual(
    b.parts.filter((p) => p.ms !== null).map((p) => [p.key, p.ms]),
    [
      ['preprocess', 10],
      ['0/queued', 2],
      ['0/prefill', 100],
      ['0/decode', 500],
      ['0/genOther', 8],
      ['1/inputWait', 150],
      ['1/readyQueued', 1],
      ['1/prefill', 20],
      ['1/decode', 600],
      ['1/genOther', 14],
      ['finalOutput', 3],
    ],
  );
  // [OmniTiming] prints 0.00 ms for the edge, and no transfer table measured a send: no payload transfer recorded.
  assert.deepEqual([part(b, '0->1/tx').ms, part(b, '0->1/tx').state], [null, 'notRecorded']);
  assert.match(part(b, '0->1/tx').note ?? '', /no payload transfer was recorded/);
  // Hidden rows (postprocess 0 on both stages; no transfer table) stay hidden, never 0.
  assert.deepEqual([part(b, '0->1/postprocess').ms, part(b, '0->1/postprocess').state], [null, 'hidden']);
  assert.deepEqual([part(b, '0->1/inFlight').ms, part(b, '0->1/inFlight').state], [null, 'hidden']);
  assert.deepEqual([part(b, '1/inputWait').startMs, part(b, '1/inputWait').endMs], [12, 162]);
  close(b.overlapMs, 608, 'overlap = talker [12, 620] inside the codec [12, 797]');
  assert.equal(b.overlapPlacement, 'measured');
  close(b.residualMs, 0, 'residual');
  identityHolds(b);
});

test('a missing part stays missing with its state, and its time shows in the rest of the stage', () => {
  const spec: RequestSpec = {
    id: 'speech-missing',
    e2eMs: 700,
    stages: {
      // decode 0 on the talker and None on the codec: the row is hidden. prefill: None on the codec only.
      '0': {
        num_tokens_out: int(50),
        serving_time_to_first_output_ms: 400,
        stage_gen_time_ms: 420,
        vllm_queued_ms: 1,
        vllm_prefill_ms: 399,
        vllm_decode_ms: 0,
        vllm_ttft_ms: 400,
      },
      '1': {
        num_tokens_out: int(3),
        output_unit_count: int(3),
        serving_time_to_first_output_ms: 80,
        stage_gen_time_ms: 690,
        vllm_queued_ms: 60,
        vllm_prefill_ms: null,
        vllm_decode_ms: null,
        vllm_ttft_ms: 0,
      },
    },
  };
  const [request] = analyseSpecs([spec]).requests;
  const b = breakdownOf(request!);
  // The talker emits one output (50 tokens out, decode hidden, its TTFT near its end): its
  // decode is inside its prefill figure, not recorded, as its JSON split says.
  assert.deepEqual([part(b, '0/decode').ms, part(b, '0/decode').state], [null, 'notRecorded']);
  assert.equal(part(b, '0/decode').note, 'in the prefill+decode (one output) figure');
  assert.deepEqual([part(b, '1/decode').ms, part(b, '1/decode').state], [null, 'hidden']);
  assert.deepEqual([part(b, '1/prefill').ms, part(b, '1/prefill').state], [null, 'notMeasured']);
  assert.deepEqual([part(b, 'preprocess').ms, part(b, 'preprocess').state], [null, 'notMeasured']);
  close(part(b, '0/genOther').ms, 20, 'talker: 420 − 1 − 399');
  close(part(b, '1/genOther').ms, 630, 'codec: 690 − 60, prefill and decode unmeasured are in here');
  assert.equal(part(b, '1/genOther').state, 'reconstructed');
  // The codec has no anchor (TTFT not recorded): it is placed by a rule, and says so.
  assert.equal(part(b, '1/queued').placement, 'reconstructed');
  assert.match(part(b, '1/queued').placementRule ?? '', /alongside the upstream stage/);
  assert.equal(b.overlapPlacement, 'reconstructed');
  // Talker [0, 420] anchored (400 − 399 − 1), codec drawn from 0 (no preprocess): [0, 690]; 700 − 690 unexplained.
  close(b.overlapMs, 420, 'overlap');
  close(b.residualMs, 10, 'residual');
  assert.equal(part(b, 'finalOutput').ms, null, 'no final output without an anchored last stage');
  identityHolds(b);
});

test('an INFO-level log ([OmniTiming] only): stage times and tx measured, phases not measured, overlap reconstructed', () => {
  const text = readFileSync(
    path.join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log'),
    'utf8',
  );
  const b = breakdownOf(analyse(text).requests[1]!); // total=4.47s preprocess=0.01s stages=[0:4.32s,1:4.46s]
  assert.equal(b.totalSource, 'omniTiming.total');
  close(b.totalMs, 4470, 'total');
  assert.deepEqual(part(b, '0/prefill').state, 'notMeasured', 'not printed at INFO: not measured, not hidden');
  assert.deepEqual([part(b, '0/genOther').ms, part(b, '0/genOther').state], [4320, 'measured']);
  assert.match(part(b, '0/genOther').note ?? '', /\[OmniTiming\]/);
  close(b.overlapMs, 4320, 'the talker inside the codec, both from the end of preprocessing');
  assert.equal(b.overlapPlacement, 'reconstructed');
  close(b.residualMs, 0, 'residual');
});

test('the identity Σ parts − overlap + residual = total holds on every request of every fixture log', () => {
  const dirs = [
    path.join(__dirname, '..', 'fixtures', 'upstream-rendered'),
    path.join(__dirname, '..', '..', 'samples'),
  ];
  let checked = 0;
  for (const dir of dirs) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
      for (const r of analyse(readFileSync(path.join(dir, name), 'utf8')).requests) {
        const b = breakdownOf(r);
        identityHolds(b);
        for (const p of b.parts) {
          if (p.ms === null)
            assert.ok(
              ['notMeasured', 'hidden', 'notRecorded'].includes(p.state),
              `${name} ${r.requestId} ${p.key}: null with state ${p.state}`,
            );
          else
            assert.ok(
              ['measured', 'inferred', 'reconstructed'].includes(p.state),
              `${name} ${r.requestId} ${p.key}: ${p.ms} with state ${p.state}`,
            );
        }
        checked++;
      }
    }
  }
  assert.ok(checked >= 40, `${checked} requests checked`);
});

test('stages listed out of clock order are placed and broken down as if listed in order', () => {
  const file = path.join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3-omni-three-stage-transfers.log');
  const requests = analyse(readFileSync(file, 'utf8')).requests.filter((r) => r.stages.length === 3);
  assert.ok(requests.length > 0);
  for (const r of requests) {
    const reversed = { ...r, stages: [...r.stages].reverse() };
    assert.deepEqual(breakdownOf(reversed), breakdownOf(r), r.requestId);
    assert.deepEqual(timelineOf(reversed), timelineOf(r), r.requestId);
  }
});

test('part keys and edge names stay right for any number of stages and edges (their caches are bounded and refill)', () => {
  const [request] = analyseSpecs([SEQUENTIAL]).requests;
  assert.ok(request !== undefined && request.stages.length === 2 && request.transfers.length === 1);
  const [first, second] = request.stages as [(typeof request.stages)[0], (typeof request.stages)[0]];
  const transfer = request.transfers[0] as (typeof request.transfers)[0];
  // Destinations 1..9,000 from stage 0, then 1 again: past the caches' 4,096 per level, twice.
  for (const to of [...Array.from({ length: 9000 }, (_, i) => i + 1), 1]) {
    const b = breakdownOf({
      ...request,
      stages: [first, { ...second, stageId: to, stageKey: String(to) }],
      transfers: [{ ...transfer, toStage: to, edge: `0->${to}` }],
    });
    const keys = b.parts.map((p) => p.key);
    assert.ok(keys.includes(`0->${to}/tx`) && keys.includes(`${to}/prefill`), `${to}: ${keys.join(', ')}`);
    assert.equal(b.parts.find((p) => p.key === `0->${to}/tx`)?.edge, `0->${to}`);
  }
});
