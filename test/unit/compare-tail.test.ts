// Tail attribution of both runs side by side: each run's p99 tail within its own requests,
// the sentence that says where the excess went, and the rows of the table, markdown and
// JSON outputs. On the two upstream-rendered Qwen3-TTS logs (before and after the talker
// first-audio fix), a simulated log before the fix, and hand-made tails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { compareMarkdown } from '../../server/core/compare/markdownReport';
import { compareTable } from '../../server/core/compare/tableReport';
import { tailSentence } from '../../server/core/compare/tailCompare';
import type { RunData } from '../../server/core/compare/types';
import type { TailAttribution } from '../../server/core/explain/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');

function run(name: string): RunData {
  const reader = new LogRunReader(false);
  reader.push(fs.readFileSync(path.join(DIR, name)));
  return { source: name, kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
}

test('before -> after the talker first-audio fix: the p99 excess of time to first audio stays with the talker; the codec queue that waits for it is apart', () => {
  const report = compareRuns(
    run('qwen3tts-talker-first-audio-before-fix.log'),
    run('qwen3tts-talker-first-audio-after-fix.log'),
  );
  const tail = report.tail!;
  assert.equal(tail.target, 'stage1.firstOutput');
  // Baseline: 1 of 6 requests at or above 125 ms; its largest excess the codec's queue (+31.3 ms),
  // which holds its wait for the talker (+28.7 ms): the same time seen from downstream, so the
  // talker leads and the queue is shown apart. In the candidate the codec ran alongside the
  // talker (async chunk): its parts are the talker's time seen from downstream, all apart.
  assert.equal(tail.baseline?.parts[0]?.key, '1/queued');
  assert.equal(tail.candidate?.parts[0]?.key, '0/prefill');
  assert.equal(
    tail.sentence,
    // The target in the views' words (the stage roles from the files' names), durations in one rule.
    'the p99 excess of time to first audio (stage 1 · code2wav) stayed in stage 0 · talker prefill+decode (one output): +28.7 ms → +3.90 s (+32.0 ms → +3.90 s over the median).',
  );
  const table = compareTable(report, []).join('\n');
  assert.match(
    table,
    /^Tail, p99 of time to first audio \(stage 1 · code2wav\): the p99 excess of time to first audio \(stage 1 · code2wav\) stayed in stage 0 · talker prefill\+decode/m,
  );
  assert.match(table, /^stage 1 · code2wav queued +\+31\.3 ms \(apart\) +\+162 ms \(apart\)$/m);
  assert.match(table, /^residual +−0\.28 ms +−1\.42 ms$/m);
  assert.match(
    table,
    /^ {2}baseline, apart: stage 1 · code2wav queued \(\+31\.3 ms\) holds the wait for its input from the stages upstream: it runs while their parts do, the same time seen from downstream; a queued time the log does not split \(no vllm_input_wait_ms \/ vllm_ready_queued_ms\) also holds any wait for a scheduling slot after the input came, which cannot be told apart from it\./m,
  );
  // The candidate's codec ran alongside the talker (async chunk): its four parts apart together.
  assert.match(
    table,
    /^ {2}candidate, apart: stage 1 · code2wav ran alongside the stages upstream \(async chunk feeds it as they produce\), so its 4 parts \(\+3\.90 s together\) lie within their time/m,
  );
  assert.match(table, /^stage 0 · talker prefill\+decode \(one output\) +\+28\.7 ms \(90%\) +\+3\.90 s \(100%\)$/m);
  assert.match(table, /^ {2}candidate: 1 of 6 requests ≥ 3\.80 s, \+3\.90 s over the median 96\.7 ms$/m);
  // The codec's rest of gen time: prefill and decode measured in the candidate, not in the baseline,
  // where the codec was scheduled only after its first audio (its queued time outlasts it): none of
  // its unsplit gen time counts, a known 0, so no baseline excess and no "not measured".
  assert.match(table, /^stage 1 · code2wav rest of gen time +– +\+1\.99 s \(apart\)$/m);
  assert.doesNotMatch(table, /gen time not split/);
  assert.equal(
    tail.baseline?.parts.find((p) => p.key === '1/genOther'),
    undefined,
  );
  assert.equal(tail.baseline?.notMeasured, undefined);
  assert.equal(tail.candidate?.notMeasured, undefined);
  assert.ok(!/\+0 ms \(0%\)/.test(table.slice(table.indexOf('Tail, p99'))), table);
  // A negative baseline (+1st output): Δ % keeps Δ's sign, as the header says.
  assert.match(table, /Δ % = Δ \/ \|baseline\| \(its sign is Δ's where the baseline is negative, \+1st output\)/);
  assert.match(table, /^1 · code2wav +\+1st output +6\/6 +p50 +-1,023 +-712\.1 +\+310\.8 +\+30\.4% /m);
  // 6 requests a run: nothing is testable, said once above the rows that each read "not testable".
  const tooFew =
    'Too few requests to test any difference: each run needs at least 10 measured values of a metric, and the most here are 6 (baseline) and 6 (candidate). The differences below describe these requests; none is evidence of a change.';
  assert.ok(table.includes(`\n${tooFew}\n`), table);
  const md = [compareMarkdown(report, [])].flat().join('\n');
  assert.match(md, /\| stage 1 · code2wav queued \| \+31\.3 ms \(apart\) \| \+162 ms \(apart\) \|/);
  assert.match(md, /\| stage 1 · code2wav rest of gen time \| – \| \+1\.99 s \(apart\) \|/);
  assert.ok(md.includes(`**Changed:** nothing could be tested. ${tooFew}`), md);
  // JSON: the report itself (schema 1) carries it.
  const json = JSON.parse(JSON.stringify(report)) as {
    tail: { sentence: string; baseline: { parts: { key: string }[]; notMeasured?: unknown } };
  };
  assert.equal(json.tail.sentence, tail.sentence);
  assert.ok(!json.tail.baseline.parts.some((p) => p.key === '1/genOther'));
  assert.equal(json.tail.baseline.notMeasured, undefined);
});

test('a baseline whose codec made its first audio after it was scheduled, in a gen time the log does not split: "not measured" with the reason, never +0 ms, in every output', () => {
  // `simulate --talker-first-audio --model-runner v2 --async-chunk --stats-build before-fix --requests 12 --seed 3 --fixed-clock --debug-tables`.
  const reader = new LogRunReader(false);
  reader.push(
    fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sim', 'talker-first-audio-before-fix-seed3.log')),
  );
  const simulated: RunData = {
    source: 'talker-first-audio-before-fix-seed3.log',
    kind: 'log',
    samples: reader.end(),
    histograms: null,
    problemCount: 0,
  };
  const report = compareRuns(simulated, run('qwen3tts-talker-first-audio-after-fix.log'));
  const tail = report.tail!;
  assert.equal(tail.target, 'stage1.firstOutput');
  const table = compareTable(report, []).join('\n');
  assert.match(
    table,
    /^stage 1 · code2wav rest of gen time · baseline: gen time not split \(no prefill\/decode values\) +not measured +\+1\.99 s \(apart\)$/m,
  );
  assert.match(
    table,
    /^ {2}baseline, stage 1 · code2wav gen time not split \(no prefill\/decode values\): not measured\. Stage 1's first output lies inside its gen time/m,
  );
  assert.equal(
    tail.baseline?.parts.find((p) => p.key === '1/genOther'),
    undefined,
  );
  assert.deepEqual(
    tail.baseline?.notMeasured?.map((p) => p.key),
    ['1/genOther'],
  );
  assert.doesNotMatch(table, /gen time not split[^\n]*\+0 ms/);
  const md = [compareMarkdown(report, [])].flat().join('\n');
  assert.match(
    md,
    /\| stage 1 · code2wav rest of gen time · baseline: gen time not split \(no prefill\/decode values\) \| not measured \| \+1\.99 s \(apart\) \|/,
  );
  assert.match(md, /^baseline, stage 1 · code2wav gen time not split .*: not measured\. /m);
  const json = JSON.parse(JSON.stringify(report)) as {
    tail: { baseline: { parts: { key: string }[]; notMeasured: { key: string; reason: string }[] } };
  };
  assert.ok(!json.tail.baseline.parts.some((p) => p.key === '1/genOther'));
  assert.match(json.tail.baseline.notMeasured[0]?.reason ?? '', /is not known$/);
});

function tailOf(parts: [string, number][], excessMs: number): TailAttribution {
  return {
    target: 'e2e',
    quantile: 'p99',
    thresholdMs: 1000,
    requestCount: 2,
    scopeCount: 200,
    targetMedianMs: 400,
    excessMs,
    parts: parts.map(([key, ms]) => ({
      key,
      stageId: Number(key[0]),
      stageKey: key[0] as string,
      phase: key.slice(2) as 'prefill',
      excessMs: ms,
      share: ms / excessMs,
      medianMs: 10,
      measuredIn: 2,
    })),
    residualMs: excessMs - parts.reduce((a, [, ms]) => a + ms, 0),
    requestIds: ['a', 'b'],
  };
}

test('the sentence: moved, stayed, nothing stands out, one side only', () => {
  const b = tailOf(
    [
      ['1/inputWait', 812],
      ['0/prefill', 100],
    ],
    900,
  );
  const c = tailOf(
    [
      ['0/prefill', 640],
      ['1/inputWait', 20],
    ],
    700,
  );
  assert.equal(
    tailSentence('e2e', b, c),
    'the p99 excess of end-to-end time moved from stage 1 input wait (+812 ms) to stage 0 prefill (+640 ms) (+900 ms → +700 ms over the median).',
  );
  assert.equal(
    tailSentence('e2e', b, b),
    'the p99 excess of end-to-end time stayed in stage 1 input wait: +812 ms → +812 ms (+900 ms → +900 ms over the median).',
  );
  assert.equal(
    tailSentence('e2e', tailOf([], 0), c),
    'the p99 excess of end-to-end time: +0 ms in the baseline, +700 ms in the candidate (no part stands out in the baseline).',
  );
  assert.equal(tailSentence('e2e', null, c), 'the p99 excess of end-to-end time is known in the candidate only.');
  // A downstream wait that is mostly the time of the upstream part it waits for does not lead.
  const waiting = tailOf(
    [
      ['1/inputWait', 880],
      ['0/prefill', 860],
    ],
    900,
  );
  assert.equal(
    tailSentence('e2e', waiting, c),
    'the p99 excess of end-to-end time stayed in stage 0 prefill: +860 ms → +640 ms (+900 ms → +700 ms over the median).',
  );
});

test('the sentence where a run had one request for the target: that run has no tail, the other keeps its own', () => {
  const c = tailOf(
    [
      ['0/prefill', 640],
      ['1/inputWait', 20],
    ],
    700,
  );
  const one = { target: 'e2e', requestId: 'r-1', valueMs: 4472 };
  assert.equal(
    tailSentence('e2e', null, c, [], {}, { baseline: one, candidate: null }),
    'the p99 excess of end-to-end time: +700 ms over the median in the candidate, most in stage 0 prefill (+640 ms); the baseline has no tail, only one request measured it.',
  );
  assert.equal(
    tailSentence('e2e', c, null, [], {}, { baseline: null, candidate: one }),
    'the p99 excess of end-to-end time: +700 ms over the median in the baseline, most in stage 0 prefill (+640 ms); the candidate has no tail, only one request measured it.',
  );
  assert.equal(
    tailSentence('e2e', null, null, [], {}, { baseline: one, candidate: one }),
    'the p99 excess of end-to-end time: neither run has a tail, only one request measured it in each.',
  );
  assert.equal(
    tailSentence('e2e', null, null, [], {}, { baseline: null, candidate: one }),
    'the p99 excess of end-to-end time: neither run has a tail, only one request measured it in the candidate and none in the baseline.',
  );
});

test('two runs of different pipelines (two stages against three): the first note says so', () => {
  const report = compareRuns(
    run('qwen3tts-talker-first-audio-after-fix.log'),
    run('qwen3-omni-three-stage-transfers.log'),
  );
  assert.equal(
    report.notes[0],
    'The runs have different stages (baseline 0, 1; candidate 0, 1, 2): not the same pipeline or deploy config, so a stage of one is not the same stage of the other. Rows are matched by stage id only.',
  );
  const same = compareRuns(
    run('qwen3tts-talker-first-audio-before-fix.log'),
    run('qwen3tts-talker-first-audio-after-fix.log'),
  );
  assert.equal(
    same.notes.some((n) => n.startsWith('The runs have different stages')),
    false,
  );
});
