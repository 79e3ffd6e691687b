// A three-stage request under async chunk (thinker -> talker -> code2wav, all submitted
// together): the talker runs alongside the thinker and decodes long after it ended, the
// code2wav alongside the talker. End to end, the code2wav's time is the talker's seen again
// (set apart whole), and of the talker's decode only the time within the thinker's is (set
// apart in part): the shares add up without counting the thinker's time twice. Numbers by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainTable, residualText } from '../../server/core/explain/explainTable';
import { explainJsonText, explainReport } from '../../server/core/explain/explainReport';
import type { TailAttributionJson } from '../../server/core/explain/oneOutputJson';
import { additiveTail } from '../../server/core/explain/overlapApart';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import { analyseSpecs, int, type RequestSpec } from './support/explainLogs';

/**
 * Preprocess 10 ms. Thinker anchored at 112 − 100 − 2 = 10: queued 2, prefill 100, decode
 * 500 (+1,000 slow), gen 610 (+1,000), ends at 620 (1,620). Talker anchored at 81 − 20 − 51 =
 * 10, alongside the thinker: input wait 50, ready queued 1, prefill 20, decode 1,500 (+5,000),
 * gen 1,580 (+5,000). Code2wav anchored at 101 − 10 − 81 = 10: input wait 80, ready queued 1,
 * prefill 10, decode 1,520 (+5,000), gen 1,615 (+5,000), ends at 1,625 (6,625). e2e 1,630 (6,630).
 */
function threeStage(i: number, slow: boolean): RequestSpec {
  const x = slow ? 1 : 0;
  return {
    id: `chatcmpl-${String(i).padStart(2, '0')}`,
    e2eMs: 1630 + 5000 * x,
    preprocessS: 0.01,
    stages: {
      '0': {
        num_tokens_in: int(64),
        num_tokens_out: int(50),
        serving_time_to_first_output_ms: 112,
        stage_gen_time_ms: 610 + 1000 * x,
        vllm_queued_ms: 2,
        vllm_prefill_ms: 100,
        vllm_decode_ms: 500 + 1000 * x,
        vllm_ttft_ms: 102,
      },
      '1': {
        num_tokens_in: int(0),
        num_tokens_out: int(300),
        serving_time_to_first_output_ms: 81,
        stage_gen_time_ms: 1580 + 5000 * x,
        vllm_queued_ms: 51,
        vllm_input_wait_ms: 50,
        vllm_ready_queued_ms: 1,
        vllm_prefill_ms: 20,
        vllm_decode_ms: 1500 + 5000 * x,
        vllm_ttft_ms: 71,
      },
      '2': {
        num_tokens_in: int(0),
        num_tokens_out: int(300),
        serving_time_to_first_output_ms: 101,
        stage_gen_time_ms: 1615 + 5000 * x,
        vllm_queued_ms: 81,
        vllm_input_wait_ms: 80,
        vllm_ready_queued_ms: 1,
        vllm_prefill_ms: 10,
        vllm_decode_ms: 1520 + 5000 * x,
        vllm_ttft_ms: 91,
      },
    },
  };
}

const specs = Array.from({ length: 20 }, (_, i) => threeStage(i, i === 7 || i === 13));

test('end to end: the code2wav apart whole, the talker decode apart for the thinker time it ran alongside', () => {
  const { index } = analyseSpecs(specs);
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p95', scope: {} })!;
  assert.equal(t.requestCount, 2);
  assert.equal(t.excessMs, 5000);
  assert.deepEqual(t.alongsideStages, ['1', '2']);
  // Every part's excess: 5,000 (talker decode), 5,000 (code2wav decode), 1,000 (thinker decode).
  const excess = Object.fromEntries(t.parts.filter((p) => p.excessMs !== 0).map((p) => [p.key, p.excessMs]));
  assert.deepEqual(excess, { '0/decode': 1000, '1/decode': 5000, '2/decode': 5000 });
  assert.equal(t.residualMs, -6000);

  const additive = additiveTail(t);
  // The code2wav's 5,000 is 6,000 of overlap's echo of the talker (isOverlap): apart whole, 1,000
  // left. The talker (5,000, far more) keeps 4,000 of its own; 1,000 lies within the thinker's.
  assert.deepEqual(
    additive.apart.filter((a) => a.part.excessMs !== 0).map((a) => [a.part.key, a.part.excessMs, a.ofMs]),
    [
      ['1/decode', 1000, 5000],
      ['2/decode', 5000, undefined],
    ],
  );
  const shares = additive.parts.filter((p) => p.excessMs !== 0).map((p) => [p.key, p.excessMs, p.share]);
  assert.deepEqual(shares, [
    ['1/decode', 4000, 0.8],
    ['0/decode', 1000, 0.2],
  ]);
  assert.equal(additive.residualMs, 0);
});

test('the table says what was set apart and why, and the shares add up', () => {
  const { index } = analyseSpecs(specs);
  const report = explainReport(index, 'x.log', { targets: ['e2e'], quantiles: ['p95'], scope: {} }, [], []);
  const text = explainTable(report).join('\n');
  assert.match(text, /stage 1 decode +\+4\.00 s +80%/);
  assert.match(text, /stage 0 decode +\+1\.00 s +20%/);
  assert.match(text, /stage 1 decode \(overlap, within upstream\) +\+1\.00 s +apart/);
  assert.match(text, /stage 2 decode \(overlap\) +\+5\.00 s +apart/);
  assert.match(text, /residual +\+0 ms +0%/);
  assert.match(
    text,
    /stage 1 ran alongside the stages upstream \(async chunk feeds it as they produce\) and went on after them: \+1\.00 s of stage 1 decode \(\+5\.00 s in all\) lies within their time/,
  );
});

test("the JSON says which parts the table set apart, and how much, so the table's residual and shares follow from it", () => {
  const { index } = analyseSpecs(specs);
  const report = explainReport(index, 'x.log', { targets: ['e2e'], quantiles: ['p95'], scope: {} }, [], []);
  const t = (JSON.parse(explainJsonText(report)) as { tail: TailAttributionJson[] }).tail[0]!;
  // The attribution's residual adds every part; the table's gives back what it set apart.
  assert.equal(t.residualMs, -6000);
  assert.equal(t.additiveResidualMs, 0);
  const apartMs = t.parts.reduce((a, p) => a + (p.apartMs ?? 0), 0);
  assert.equal(t.residualMs + apartMs, t.additiveResidualMs);
  const apart = t.parts
    .filter((p) => p.apart !== undefined && p.excessMs !== 0)
    .map((p) => [p.key, p.excessMs, p.apart, p.apartMs]);
  assert.deepEqual(apart, [
    ['1/decode', 5000, 'alongside', 1000],
    ['2/decode', 5000, 'alongside', 5000],
  ]);
  // The code2wav's other parts are apart whole too (excess 0); the thinker's none.
  assert.ok(
    t.parts.filter((p) => p.stageKey === '2').every((p) => p.apart === 'alongside' && p.apartMs === p.excessMs),
  );
  assert.ok(t.parts.filter((p) => p.stageKey === '0').every((p) => p.apart === undefined && p.apartMs === undefined));
  // The table's share: (excess − apartMs) / the target's excess: the talker's decode 80%.
  const talker = t.parts.find((p) => p.key === '1/decode')!;
  assert.equal((talker.excessMs - (talker.apartMs ?? 0)) / t.excessMs, 0.8);
  assert.match(explainTable(report).join('\n'), /stage 1 decode +\+4\.00 s +80%/);
});

test('a residual beyond ±5% of the excess after the parts apart says why; within it, nothing', () => {
  assert.equal(residualText(-40, 1000, true), null);
  assert.match(residualText(-60, 1000, true) ?? '', /^a negative residual: .*beyond the parts set apart none is known/);
  assert.match(residualText(-60, 1000, false) ?? '', /^a negative residual: .*and none is known/);
  assert.match(residualText(60, 1000, false) ?? '', /^a positive residual: time of the tail that no part explains/);
  // A stage shown alongside its upstream still in the sum: named, never "none is known".
  const kept = residualText(-60, 1000, true, ['stage 1']) ?? '';
  assert.match(
    kept,
    /; stage 1 ran alongside its upstream \(the tail's positions show it\), so part of this may be the same time counted twice/,
  );
  assert.doesNotMatch(kept, /none is known/);
  // The tail's own residual (within each request) decides whether a positive one is time no part explains.
  assert.match(
    residualText(60, 1000, false, [], { residualMs: 55, requests: 2 }) ?? '',
    /time of the tail that no part explains: final output/,
  );
  assert.equal(
    residualText(60, 1000, false, [], { residualMs: 20, requests: 2 }),
    "a positive residual: the parts' excesses add up to less than the target's; each is over its own median, taken over all requests, so they need not add up exactly: within the tail requests the parts leave only 20.0 ms of the target unexplained on average, so little of the residual is time of the tail that no part explains",
  );
  assert.match(
    residualText(60, 1000, false, [], { residualMs: -15, requests: 1 }) ?? '',
    /within the tail request the parts add up to 15\.0 ms more than the target, so no time/,
  );
});
