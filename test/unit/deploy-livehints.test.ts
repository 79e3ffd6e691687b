// Measured numbers next to a deploy config: how they read ("not recorded", never 0) and
// where they go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  codecTtftStatus,
  compactMs,
  formatCodecTtftStatus,
  formatStageDetail,
  formatStageNumbers,
  INLAY_LABEL_BUDGET,
  liveHints,
  stageAnchors,
  type LiveStageNumbers,
  type StageLiveNumbers,
} from '../../server/core/deploy';
import { analyzeFixture, analyzeVirtual } from './support/deployHelpers';
import { TTFT_WAITED_TEXT } from '../../server/core/analysis/ttftUpstreamWait';

const talker: StageLiveNumbers = {
  stageId: 0,
  ttftP50Ms: 41.2,
  prefillP50Ms: 39,
  queuedP50Ms: 0.44,
  n: 120,
  ttftNotRecorded: false,
};
const codecLie: StageLiveNumbers = {
  stageId: 1,
  ttftP50Ms: 0,
  prefillP50Ms: null,
  queuedP50Ms: 1250.4,
  n: 18,
  ttftNotRecorded: true,
};
/** A one-output talker (Model Runner V2 + async chunk): its prefill covers its decode. */
const oneOutputTalker: StageLiveNumbers = {
  stageId: 0,
  ttftP50Ms: 1109.4,
  prefillP50Ms: null,
  prefillDecodeP50Ms: 1106.2,
  queuedP50Ms: 0.41,
  n: 6,
  ttftNotRecorded: false,
};
const session: LiveStageNumbers = { sessionLabel: 'launch: vllm serve', stages: [talker, codecLie] };

test('stage numbers: the largest phase first; a flagged TTFT is "not recorded", not 0', () => {
  assert.equal(formatStageNumbers(talker), 'p50 prefill 39 ms · TTFT 41 ms (n=120)');
  assert.equal(formatStageNumbers(codecLie), 'p50 queued 1.25 s · TTFT not recorded');
  assert.equal(formatStageDetail(talker), 'TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms (n=120)');
  assert.equal(formatStageDetail(codecLie), 'TTFT not recorded · queued p50 1,250 ms (n=18)');
  assert.equal(
    formatStageNumbers({ ...talker, ttftP50Ms: null, prefillP50Ms: null, queuedP50Ms: null, n: 3 }),
    'no phase split measured (n=3)',
  );
});

test('numbers next to a deploy config round as every view does: 1,275 ms reads 1.28 s, 0.35 ms 0.4 ms', () => {
  // The INFO-level fixture's talker stage time p50 is 1,275 ms: the side panel's tail says 1.28 s.
  assert.equal(compactMs(1275), '1.28 s');
  assert.equal(compactMs(12_250), '12.3 s');
  assert.equal(compactMs(0.35), '0.4 ms');
  assert.equal(compactMs(-0.04), '0 ms');
  assert.equal(compactMs(1500), '1.5 s');
  assert.equal(
    formatStageDetail({ ...talker, queuedP50Ms: 0.35 }),
    'TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms (n=120)',
  );
});

test("a downstream stage's queued time: its split parts where printed, else said to include the wait for upstream input", () => {
  const split = {
    ...codecLie,
    ttftNotRecorded: false,
    ttftP50Ms: 90,
    queuedP50Ms: 62.3,
    inputWaitP50Ms: 62,
    readyQueuedP50Ms: 0.3,
  };
  assert.equal(formatStageDetail(split), 'TTFT p50 90 ms · input wait p50 62 ms · ready queued p50 0.3 ms (n=18)');
  assert.equal(formatStageNumbers(split), 'p50 input wait 62 ms · TTFT 90 ms (n=18)');
  // Every ready queued value a 0 inferred from a hidden row: marked, and never a phase to lead with.
  const inferred = { ...split, inputWaitP50Ms: 0.2, readyQueuedP50Ms: 0, readyQueuedInferred: true };
  assert.equal(
    formatStageDetail(inferred),
    'TTFT p50 90 ms · input wait p50 0.2 ms · ready queued p50 ≈0 ms (inferred 0: hidden row, other half of the split measured) (n=18)',
  );
  assert.equal(formatStageNumbers(inferred), 'p50 input wait 0.2 ms · TTFT 90 ms (n=18)');
  assert.equal(
    formatStageDetail({ ...codecLie, queuedIncludesInputWait: true }),
    'TTFT not recorded · queued p50 1,250 ms (includes the wait for upstream input) (n=18)',
  );
});

test('a phase with no number is named with why, never left out: not measured (None), hidden, not recorded', () => {
  // The before-fix codec: TTFT 0 with no prefill, prefill None, decode hidden, the input split printed.
  const codec: StageLiveNumbers = {
    ...codecLie,
    queuedP50Ms: 63.2,
    inputWaitP50Ms: 63,
    readyQueuedP50Ms: 0,
    readyQueuedInferred: true,
    noNumber: { prefill: 'notMeasured', decode: 'hidden' },
  };
  assert.equal(
    formatStageDetail(codec),
    'TTFT not recorded · prefill not measured · decode hidden · input wait p50 63 ms · ready queued p50 ≈0 ms (inferred 0: hidden row, other half of the split measured) (n=18)',
  );
  // The first stage of a session that prints the input split: its split is None, said so.
  assert.equal(
    formatStageDetail({
      ...talker,
      noNumber: { decode: 'hidden', inputWait: 'notMeasured', readyQueued: 'notMeasured' },
    }),
    'TTFT p50 41 ms · prefill p50 39 ms · decode hidden · queued p50 0.4 ms · input wait not measured · ready queued not measured (n=120)',
  );
  // The label keeps to numbers.
  assert.equal(formatStageNumbers(codec), 'p50 input wait 63 ms · TTFT not recorded');
});

test('codec TTFT status under talker first audio', () => {
  assert.equal(
    formatCodecTtftStatus(session, [1]),
    'codec TTFT not recorded (stage 1: vllm_ttft_ms 0 with no prefill: build without the stats fix)',
  );
  const fixed = {
    ...session,
    stages: [talker, { ...codecLie, ttftNotRecorded: false, ttftP50Ms: 4000, prefillP50Ms: 500 }],
  };
  assert.equal(formatCodecTtftStatus(fixed, [1]), 'codec TTFT recorded (stage 1 p50 4,000 ms)');
  assert.deepEqual(codecTtftStatus(fixed, [1]), {
    label: 'codec TTFT recorded (stage 1 p50 4 s)',
    detail: 'codec TTFT recorded (stage 1 p50 4,000 ms)',
  });
  // Several codecs whose numbers do not fit: the stages only, the numbers in the tooltip.
  const several = {
    ...fixed,
    stages: [
      talker,
      ...[1, 2, 3].map((stageId) => ({ ...codecLie, stageId, ttftNotRecorded: false, ttftP50Ms: 4321.5 })),
    ],
  };
  assert.equal(codecTtftStatus(several, [1, 2, 3])?.label, 'codec TTFT recorded (stages 1, 2, 3)');
  // A codec TTFT that waited for the talker's first audio: marked, and the mark said in the tooltip.
  const waited = { ...fixed, stages: [talker, { ...fixed.stages[1]!, ttftWaitedRequests: 2 }] };
  assert.deepEqual(codecTtftStatus(waited, [1]), {
    label: 'codec TTFT recorded (stage 1 p50 4 s†)',
    detail: `codec TTFT recorded (stage 1 p50 4,000 ms†)\n† ${TTFT_WAITED_TEXT}, on 2 of 18 requests.`,
  });
  assert.equal(formatStageNumbers(waited.stages[1]!), 'p50 queued 1.25 s · TTFT 4 s† (n=18)');
  assert.equal(
    formatCodecTtftStatus({ ...session, stages: [talker] }, [1]),
    'codec TTFT: no measurement for stage 1 yet',
  );
});

test('hints after stage_id, after base_config for inherited stages, after talker_first_audio', () => {
  const analysis = analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml');
  const hints = liveHints(analysis, session).map((h) => `${h.position.line + 1}:${h.position.character} ${h.label}`);
  assert.deepEqual(hints, [
    '35:15 p50 prefill 39 ms · TTFT 41 ms (n=120)',
    '42:15 p50 queued 1.25 s · TTFT not recorded',
    '21:30 codec TTFT not recorded (no stats fix)',
  ]);
  // The label fits VS Code's default inlay length; the tooltip says it whole.
  const codec = liveHints(analysis, session)[2];
  assert.match(
    codec?.tooltip ?? '',
    /^codec TTFT not recorded \(stage 1: vllm_ttft_ms 0 with no prefill: build without the stats fix\)\n\n/,
  );
  for (const h of liveHints(analysis, session)) assert.ok(h.label.length <= INLAY_LABEL_BUDGET, h.label);
  assert.deepEqual(liveHints(analysis, null), []);
  const inherited = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2.yaml'), session).map(
    (h) => `${h.position.line + 1} ${h.label}`,
  );
  // Both after base_config: the editor's length counts the line's labels together, so the second
  // stage is not cut to "…" there but named in the first one's tooltip.
  assert.deepEqual(inherited, ['2 stage 0: p50 prefill 39 ms · TTFT 41 ms']);
  assert.match(
    liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2.yaml'), session)[0]?.tooltip ?? '',
    /^stage 0: TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms \(n=120\)\n\nPast the editor's inlay hint length on this line: stage 1: p50 queued 1.25 s\nstage 1: TTFT not recorded · queued p50 1,250 ms \(n=18\)\n\nMeasured in launch: vllm serve$/,
  );
  assert.deepEqual(
    stageAnchors(analyzeFixture('qwen3_tts_mrv2.yaml')).map((a) => [
      a.stageId,
      a.inherited,
      a.entry.keyLocation.range.start.line + 1,
    ]),
    [
      [0, false, 18],
      [1, true, 4],
    ],
  );
});

test("a hint fits the editor's default inlay hint length (43): the dominant phase is not cut off", () => {
  // Qwen3-Omni's thinker and talker (decode dominant), a one-output talker, a codec.
  const omniTalker: StageLiveNumbers = {
    stageId: 1,
    ttftP50Ms: 95.7,
    prefillP50Ms: 94.9,
    decodeP50Ms: 25_282,
    queuedP50Ms: 0.35,
    n: 3,
    ttftNotRecorded: false,
  };
  const thinker = { ...omniTalker, stageId: 0, ttftP50Ms: 415, prefillP50Ms: 411, decodeP50Ms: 982, queuedP50Ms: 1.61 };
  assert.equal(formatStageNumbers(omniTalker), 'p50 decode 25.3 s · TTFT 96 ms (n=3)');
  assert.equal(formatStageNumbers(thinker), 'p50 decode 982 ms · TTFT 415 ms (n=3)');
  assert.equal(formatStageNumbers(oneOutputTalker), 'p50 prefill+decode 1.11 s · TTFT 1.11 s');
  assert.equal(formatStageNumbers({ ...codecLie, queuedP50Ms: 53, n: 120 }), 'p50 queued 53 ms · TTFT not recorded');
  // Room left: the next phases, then the count.
  assert.equal(
    formatStageNumbers({ ...thinker, decodeP50Ms: null }, 80),
    'p50 prefill 411 ms · TTFT 415 ms · queued 1.6 ms (n=3)',
  );
  for (const stage of [talker, codecLie, omniTalker, thinker, oneOutputTalker])
    assert.ok(formatStageNumbers(stage).length <= INLAY_LABEL_BUDGET, formatStageNumbers(stage));
  // Too little room even for the largest phase and TTFT: the count goes, then the TTFT (its
  // tooltip has it); the largest phase keeps the "p50" that says what it is and its unit.
  assert.equal(formatStageNumbers(oneOutputTalker, 39), 'p50 prefill+decode 1.11 s · TTFT 1.11 s');
  assert.equal(formatStageNumbers(oneOutputTalker, 30), 'p50 prefill+decode 1.11 s');
  assert.equal(formatStageNumbers(omniTalker, 20), 'p50 decode 25.3 s');
  // The tooltip has every number, the decode included.
  const hints = liveHints(analyzeFixture('qwen3_omni_moe.yaml'), {
    sessionLabel: 'omni.log',
    stages: [thinker, omniTalker],
  });
  assert.match(
    hints[1]?.tooltip ?? '',
    /^TTFT p50 96 ms · prefill p50 95 ms · decode p50 25,282 ms · queued p50 0.4 ms \(n=3\)\n\nMeasured in omni.log/,
  );
});

test("what leads the p99 tail: a hint of its own after that stage's numbers where the line has room for both", () => {
  // VS Code counts every inlay label on a line against editor.inlayHints.maximumLength (43): the
  // first whole, the next cut to what is left. The labels of a line add up to 43 at most.
  const lineLength = (hints: readonly { position: { line: number }; label: string }[], line: number): number =>
    hints.filter((h) => h.position.line === line).reduce((sum, h) => sum + h.label.length, 0);
  const decodeLead: LiveStageNumbers = {
    ...session,
    tailLead: { stageId: 0, part: 'decode', share: 0.85, target: 'end-to-end time', tailRequests: 2 },
  };
  // The numbers keep their "p50" (the hover names each number's percentile; a label without it
  // reads as any value): with it the talker's numbers leave no room, so the tail lead is in their tooltip.
  const full = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), decodeLead);
  assert.deepEqual(
    full.map((h) => `${h.position.line + 1}:${h.position.character} ${h.label}`),
    [
      '35:15 p50 prefill 39 ms · TTFT 41 ms (n=120)',
      '42:15 p50 queued 1.25 s · TTFT not recorded',
      '21:30 codec TTFT not recorded (no stats fix)',
    ],
  );
  assert.match(full[0]?.tooltip ?? '', /\n\nThe decode of stage 0 has the largest mean excess/);
  // Shorter numbers: they give up their count, never "p50", and the tail lead keeps its long form beside them.
  const roomy = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), {
    ...decodeLead,
    stages: [{ ...talker, ttftP50Ms: null }, codecLie],
  });
  assert.deepEqual(
    roomy.map((h) => `${h.position.line + 1}:${h.position.character} ${h.label}`),
    [
      '35:15 p50 prefill 39 ms',
      '35:15 p99 tail: decode 85%',
      '42:15 p50 queued 1.25 s · TTFT not recorded',
      '21:30 codec TTFT not recorded (no stats fix)',
    ],
  );
  assert.match(
    roomy[1]?.tooltip ?? '',
    /^The decode of stage 0 has the largest mean excess over its median in the 2 requests at or above the p99 of end-to-end time \(85% of the tail's excess;/,
  );
  for (const h of roomy) assert.ok(lineLength(roomy, h.position.line) <= INLAY_LABEL_BUDGET, h.label);

  // No room for both: the numbers stay whole on the line, the tail lead is in their tooltip.
  const led: LiveStageNumbers = {
    ...session,
    tailLead: {
      stageId: 0,
      part: 'prefill+decode (one output)',
      share: 0.9,
      target: 'end-to-end time',
      tailRequests: 2,
    },
  };
  const hints = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), led);
  assert.deepEqual(
    hints.map((h) => `${h.position.line + 1}:${h.position.character} ${h.label}`),
    [
      '35:15 p50 prefill 39 ms · TTFT 41 ms (n=120)',
      '42:15 p50 queued 1.25 s · TTFT not recorded',
      '21:30 codec TTFT not recorded (no stats fix)',
    ],
  );
  assert.match(
    hints[0]?.tooltip ?? '',
    /^TTFT p50 41 ms · prefill p50 39 ms · queued p50 0.4 ms \(n=120\)\n\nThe prefill\+decode \(one output\) of stage 0 has the largest mean excess over its median in the 2 requests at or above the p99 of end-to-end time \(90% of the tail's excess;/,
  );
  for (const h of hints) assert.ok(lineLength(hints, h.position.line) <= INLAY_LABEL_BUDGET, h.label);
});

test('a stage id listed twice: its hint and code lens go to the last entry, the one vLLM-Omni keeps', () => {
  const text = 'stages:\n  - stage_id: 0\n    max_num_seqs: 4\n  - stage_id: 1\n  - stage_id: 0\n    max_num_seqs: 8\n';
  const anchors = stageAnchors(analyzeVirtual({ 'dup.yaml': text }, 'dup.yaml'));
  assert.deepEqual(
    anchors.map((a) => [a.stageId, a.entry.keyLocation.range.start.line + 1]),
    [
      [0, 5],
      [1, 4],
    ],
  );
});

test('a hint after base_config names its stage and still fits 43: the count, then words, then the TTFT go', () => {
  // Both stages come from the base config: their hints are after base_config, named `stage N: `.
  const inherited = analyzeFixture('qwen3_tts_high_concurrency_mrv2.yaml');
  const first = (stages: StageLiveNumbers[]): { label: string; tooltip: string } => {
    const [hint] = liveHints(inherited, { sessionLabel: 'launch: vllm serve', stages });
    assert.ok(hint);
    return hint;
  };
  // The codec alone measured: its hint leads the line. "not recorded" is said shorter where that fits...
  assert.equal(first([{ ...codecLie, queuedP50Ms: 53 }]).label, 'stage 1: p50 queued 53 ms · TTFT unrecorded');
  // ...else the TTFT goes to the tooltip, which says it whole; the number keeps its p50 and unit.
  const codec = first([codecLie]);
  assert.equal(codec.label, 'stage 1: p50 queued 1.25 s');
  assert.match(codec.tooltip, /^stage 1: TTFT not recorded · queued p50 1,250 ms \(n=18\)\n\nMeasured in /);
  // A one-output talker: prefill+decode stays, its TTFT is in the tooltip.
  const oneOutput = first([oneOutputTalker]);
  assert.equal(oneOutput.label, 'stage 0: p50 prefill+decode 1.11 s');
  assert.match(oneOutput.tooltip, /^stage 0: TTFT p50 1,109 ms · prefill\+decode \(one output\) p50 1,106 ms/);
  // From an INFO-level session: the word "time" goes before "incl. upstream".
  const infoStage = {
    ...codecLie,
    ttftP50Ms: null,
    queuedP50Ms: null,
    ttftNotRecorded: false,
    stageTimeP50Ms: 1420,
    alongsideUpstream: true,
  };
  assert.equal(first([infoStage]).label, 'stage 1: p50 stage 1.42 s incl. upstream');
  assert.equal(formatStageNumbers(infoStage), 'p50 stage time 1.42 s incl. upstream (n=18)');
});

test('no hint is longer than the editor cuts it, whatever the numbers and wherever the hint is', () => {
  const lineLengths = (hints: readonly { position: { line: number }; label: string }[]): Map<number, number> => {
    const lengths = new Map<number, number>();
    for (const h of hints) lengths.set(h.position.line, (lengths.get(h.position.line) ?? 0) + h.label.length);
    return lengths;
  };
  const values = [null, 0.35, 53, 999.6, 1250.4, 25_282, 1_234_567];
  const analyses = [
    'qwen3_tts_high_concurrency_mrv2.yaml',
    'qwen3_tts_high_concurrency_mrv2_single_gpu.yaml',
    'qwen3_tts_mrv2.yaml',
  ].map(analyzeFixture);
  let checked = 0;
  for (const big of values)
    for (const ttft of values)
      for (const notRecorded of [false, true])
        for (const oneOutput of [false, true])
          for (const waited of [0, 2]) {
            const stage: StageLiveNumbers = {
              stageId: 1,
              ttftP50Ms: ttft,
              prefillP50Ms: oneOutput ? null : 39,
              prefillDecodeP50Ms: oneOutput ? big : null,
              decodeP50Ms: oneOutput ? null : big,
              queuedP50Ms: 1.6,
              inputWaitP50Ms: big,
              readyQueuedP50Ms: big,
              n: 12_345,
              ttftNotRecorded: notRecorded,
              ttftWaitedRequests: waited,
              stageTimeP50Ms: big,
              alongsideUpstream: true,
            };
            const numbers: LiveStageNumbers = {
              sessionLabel: 'launch: vllm serve',
              stages: [stage, { ...stage, stageId: 0 }],
              tablesMissing: { requests: 123, of: 4567, all: false, message: 'm' },
              tailLead: { stageId: 1, part: 'prefill+decode (one output)', share: 0.9, target: 'e2e', tailRequests: 2 },
            };
            for (const analysis of analyses) {
              const hints = liveHints(analysis, numbers);
              for (const [line, length] of lineLengths(hints)) {
                assert.ok(length <= INLAY_LABEL_BUDGET, `${line}: ${hints.map((h) => h.label).join(' | ')}`);
                checked++;
              }
              for (const h of hints)
                if (/ (ms|s)\b/.test(h.label) && !h.label.startsWith('codec') && !h.label.startsWith('p99'))
                  assert.match(h.label, /^(stage \d+: )?(p50 |TTFT (not recorded|unrecorded) · )/, h.label);
            }
          }
  assert.ok(checked > 1000, String(checked));
  // Codec TTFT status after talker_first_audio: several codec stages are named in the tooltip only.
  const waiting = codecTtftStatus({ ...session, stages: [talker] }, [11, 12, 13]);
  assert.deepEqual(waiting, {
    label: 'codec TTFT: no measurement yet',
    detail: 'codec TTFT: no measurement for stage 11, 12, 13 yet',
  });
});
