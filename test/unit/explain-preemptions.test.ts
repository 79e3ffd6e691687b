// Preemptions in a tail (preemptionsInTail.ts): per stage up to the target's, the requests that
// printed vllm_num_preemptions > 0 in the tail against all in scope; over-represented when the
// tail's share is at least twice the share in scope (with two or more in the tail). A hidden
// row counts as neither. Requests by hand from asyncChunk: 20 requests, e2e 800 ms, slow ones
// +1,000 ms of talker decode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ColumnReads } from '../../server/core/explain/columnReads';
import { preemptionsInTail } from '../../server/core/explain/preemptionsInTail';
import { explainReport } from '../../server/core/explain/explainReport';
import { explainTable } from '../../server/core/explain/explainTable';
import { analyseSpecs, asyncChunk, int, type RequestSpec } from './support/explainLogs';

type Fields = Record<string, number | ReturnType<typeof int>>;

/** Requests `slow` decode 1,000 ms longer on the talker; `preempted[stage]` print one preemption there. */
function requests(slow: readonly number[], preempted: Readonly<Record<string, readonly number[]>>): RequestSpec[] {
  return Array.from({ length: 20 }, (_, i) => {
    const spec = asyncChunk(`speech-${String(i).padStart(2, '0')}`) as RequestSpec & { e2eMs: number };
    const stages = spec.stages as Record<string, Fields>;
    for (const [stage, ids] of Object.entries(preempted))
      if (ids.includes(i)) (stages[stage] as Fields)['vllm_num_preemptions'] = int(1);
    if (!slow.includes(i)) return spec;
    const talker = stages['0'] as Fields;
    talker['vllm_decode_ms'] = (talker['vllm_decode_ms'] as number) + 1000;
    talker['stage_gen_time_ms'] = (talker['stage_gen_time_ms'] as number) + 1000;
    return { ...spec, e2eMs: spec.e2eMs + 1000 };
  });
}

const ask = (specs: RequestSpec[], target: 'e2e' | 'stage0.ttft' = 'e2e') => {
  const { index } = analyseSpecs(specs);
  return preemptionsInTail(index, { target, quantile: 'p90', scope: {} }, new ColumnReads());
};

test('the slow requests were the preempted ones: over-represented in the tail', () => {
  const p = ask(requests([3, 9, 15], { '0': [3, 9, 15, 5] }))!;
  assert.equal(p.thresholdMs, 1800);
  assert.equal(p.tailCount, 3);
  assert.equal(p.scopeCount, 20);
  assert.deepEqual(p.stages, [{ stageKey: '0', stageId: 0, tailPreempted: 3, allPreempted: 4 }]);
  assert.equal(p.reading, 'overRepresented');
  // The count says how often, not when: the wait may be before the first token (prefill) or after it (decode).
  assert.equal(
    p.readingText,
    'Preempted requests are over-represented in the p90 tail on stage 0: part of the tail is time lost waiting to be scheduled again (in prefill or decode), for want of KV-cache room.',
  );
});

test('preempted as often in the tail as in all: not what made it slow', () => {
  const p = ask(requests([3, 9, 15], { '0': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }))!;
  assert.deepEqual(p.stages, [{ stageKey: '0', stageId: 0, tailPreempted: 2, allPreempted: 10 }]);
  assert.equal(p.reading, 'notOverRepresented');
  assert.equal(
    p.readingText,
    'Preempted requests are no more common in the p90 tail than in all 20 requests: preemption does not explain it.',
  );
});

test('no tail request preempted; one is too few to tell', () => {
  const none = ask(requests([3, 9, 15], { '0': [0, 1] }))!;
  assert.equal(none.reading, 'notOverRepresented');
  assert.equal(
    none.readingText,
    'None of the 3 requests in the p90 tail printed a preemption: preemption does not explain it.',
  );
  const one = ask(requests([3, 9, 15], { '0': [3, 1] }))!;
  assert.equal(one.reading, 'tooFew');
});

test("a stage after the target's is left out; hidden rows are no preemptions at all", () => {
  // Stage 1 runs after stage 0's TTFT is taken: its preemptions cannot delay it.
  assert.equal(ask(requests([3, 9, 15], { '1': [3, 9, 15] }), 'stage0.ttft'), null);
  assert.deepEqual(ask(requests([3, 9, 15], { '1': [3, 9, 15] }))?.stages, [
    { stageKey: '1', stageId: 1, tailPreempted: 3, allPreempted: 3 },
  ]);
  assert.equal(ask(requests([3, 9, 15], {})), null);
});

test('the explain table says it, with the counts per stage', () => {
  const { index } = analyseSpecs(requests([3, 9, 15], { '0': [3, 9, 15, 5] }));
  const report = explainReport(index, 'x.log', { targets: ['e2e'], quantiles: ['p90'], scope: {} }, [], []);
  const lines = explainTable(report);
  const at = lines.findIndex((l) => l.startsWith('Preemptions (end-to-end time, p90 tail;'));
  assert.ok(at >= 0, lines.join('\n'));
  assert.match(lines[at] ?? '', /over-represented in the p90 tail on stage 0/);
  assert.equal(lines[at + 1], '  stage 0: 3 of 3 in the tail (100%), 4 of 20 in all (20%)');
});
