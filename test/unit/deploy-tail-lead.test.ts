// The deploy YAML hint after the stage_id of the stage that leads the p99 tail: the part
// with the largest mean excess, its share, the target; no lead for a flat tail, a hand-off,
// or a part below a fifth of the excess.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveHints, type LiveStageNumbers, type StageLiveNumbers } from '../../server/core/deploy';
import { tailLeadOf } from '../../server/core/deploy/tailLead';
import type { TailAttribution, TailPart } from '../../server/core/explain/types';
import { analyzeFixture } from './support/deployHelpers';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { partLabel } from '../../server/core/explain/explainTable';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import { analyse } from './support/explainLogs';

const talker: StageLiveNumbers = {
  stageId: 0,
  ttftP50Ms: 41.2,
  prefillP50Ms: 39,
  queuedP50Ms: 0.44,
  n: 120,
  ttftNotRecorded: false,
};
const codec: StageLiveNumbers = {
  stageId: 1,
  ttftP50Ms: 0,
  prefillP50Ms: null,
  queuedP50Ms: 1250.4,
  n: 18,
  ttftNotRecorded: true,
};

const part = (key: string, excessMs: number, total: number): TailPart => {
  const [stage, phase] = key.split('/') as [string, TailPart['phase']];
  return {
    key,
    stageId: key.includes('->') ? null : Number(stage),
    stageKey: key.includes('->') ? null : stage,
    phase: key.includes('->') ? 'transfer' : phase,
    excessMs,
    share: excessMs / total,
    medianMs: 10,
    measuredIn: 3,
  };
};

function tail(parts: [string, number][], excessMs: number): TailAttribution {
  return {
    target: 'stage1.firstOutput',
    quantile: 'p99',
    thresholdMs: 900,
    requestCount: 3,
    scopeCount: 300,
    targetMedianMs: 80,
    excessMs,
    parts: parts.map(([k, v]) => part(k, v, excessMs)),
    residualMs: 0,
    requestIds: [],
  };
}

test('a downstream wait behind the overlap does not lead: the upstream part it waits for does', () => {
  // The demo's cold request: the codec waits 1,010 ms for the talker's 1,000 ms prefill+decode.
  const cold = {
    ...tail(
      [
        ['1/inputWait', 1010],
        ['0/prefill', 1000],
      ],
      1000,
    ),
    residualMs: -1010,
  };
  assert.deepEqual(tailLeadOf(cold, new Set(['0'])), {
    stageId: 0,
    part: 'prefill+decode (one output)',
    share: 1,
    target: 'stage 1 time to first output',
    tailRequests: 3,
  });
});

test('the leading stage: its part, share and target; a one-output prefill is prefill+decode', () => {
  assert.deepEqual(
    tailLeadOf(
      tail(
        [
          ['1/inputWait', 620],
          ['0/prefill', 300],
        ],
        1000,
      ),
      new Set(),
    ),
    { stageId: 1, part: 'input wait', share: 0.62, target: 'stage 1 time to first output', tailRequests: 3 },
  );
  assert.equal(tailLeadOf(tail([['0/prefill', 800]], 1000), new Set(['0']))?.part, 'prefill+decode (one output)');
  assert.equal(tailLeadOf(tail([['0->1/tx', 900]], 1000), new Set()), null, 'a hand-off belongs to no stage');
  assert.equal(
    tailLeadOf(
      tail(
        [
          ['0/prefill', 150],
          ['1/decode', 140],
        ],
        1000,
      ),
      new Set(),
    ),
    null,
    'nothing stands out',
  );
  assert.equal(tailLeadOf(tail([['0/prefill', 0]], 0), new Set()), null, 'a flat tail');
  assert.equal(tailLeadOf(null, new Set()), null);
});

test('the hint of the leading stage carries its share of the tail; the others do not', () => {
  const lead = tailLeadOf(
    tail(
      [
        ['1/inputWait', 620],
        ['0/prefill', 300],
      ],
      1000,
    ),
    new Set(),
  );
  const session: LiveStageNumbers = { sessionLabel: 'launch: vllm serve', stages: [talker, codec], tailLead: lead };
  const hints = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), session);
  // The codec's numbers fill its line (the editor counts a line's labels together): the tail lead
  // is in their tooltip, under every number, before where they were measured.
  assert.deepEqual(
    hints.slice(0, 2).map((h) => `${h.position.line + 1} ${h.label}`),
    ['35 p50 prefill 39 ms · TTFT 41 ms (n=120)', '42 p50 queued 1.25 s · TTFT not recorded'],
  );
  assert.ok(!hints.some((h) => h.label.includes('p99')));
  assert.doesNotMatch(hints[0]?.tooltip ?? '', /largest mean excess/);
  assert.ok(
    hints[0]?.tooltip.startsWith(
      'TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms (n=120)\n\nMeasured in launch: vllm serve',
    ),
  );
  assert.match(
    hints[1]?.tooltip ?? '',
    /^TTFT not recorded · queued p50 1,250 ms \(n=18\)\n\nThe input wait of stage 1 has the largest mean excess over its median in the 3 requests at or above the p99 of stage 1 time to first output \(62% of the tail's excess.*\n\nMeasured in launch: vllm serve/,
  );
  // The numbers keep their "p50": beside "p50 queued 6 ms · TTFT 90 ms" even the short lead has no room.
  const full = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), {
    ...session,
    stages: [talker, { ...codec, ttftNotRecorded: false, ttftP50Ms: 90, prefillP50Ms: null, queuedP50Ms: 6 }],
  });
  assert.deepEqual(
    full.slice(1, 2).map((h) => `${h.position.line + 1} ${h.label}`),
    ['42 p50 queued 6 ms · TTFT 90 ms (n=18)'],
  );
  assert.match(full[1]?.tooltip ?? '', /\n\nThe input wait of stage 1 has the largest mean excess/);
  // Where the line has room: a hint of its own after the numbers.
  const roomy = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), {
    ...session,
    stages: [talker, { ...codec, ttftNotRecorded: false, ttftP50Ms: null, prefillP50Ms: null, queuedP50Ms: 6 }],
  });
  assert.deepEqual(
    roomy.slice(1, 3).map((h) => `${h.position.line + 1} ${h.label}`),
    ['42 p50 queued 6 ms', '42 p99 tail: input wait 62%'],
  );
  assert.ok(roomy[2]?.tooltip.startsWith('The input wait of stage 1 has the largest mean excess'));
});

test('an INFO-level log ([OmniTiming] only): the lead is the gen time not split, as explain and the side panel name it', () => {
  const text = readFileSync(
    join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-info-level-omnitiming-only.log'),
    'utf8',
  );
  const { index } = analyse(text);
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p99', scope: {} });
  const lead = tailLeadOf(t, new Set(index.oneOutputStages()));
  assert.equal(lead?.part, 'gen time not split (no prefill/decode values)');
  assert.equal(lead?.part, partLabel({ ...t!.parts[0]!, stageKey: '0' }).replace(/^stage 0 /, ''));
  const session: LiveStageNumbers = { sessionLabel: 'import: info.log', stages: [talker], tailLead: lead };
  const hints = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), session);
  // The stage time and the notice's mark fill the line: the tail lead, whole, is in their tooltip.
  assert.ok(!hints.some((h) => h.label.includes('p99')));
  assert.match(
    hints[0]?.tooltip ?? '',
    /\n\nThe gen time not split \(no prefill\/decode values\) of stage 0 has the largest/,
  );
});
