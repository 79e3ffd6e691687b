// Formatting of numbers and of the value states (measured, measured 0, inferred, not
// measured, hidden, not recorded) for the webviews.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RequestStage, SplitName, SplitState, StageSummary } from '../../server/core/analysis/types';
import { measured, NOT_MEASURED } from '../../server/core/values';
import { formatCompact, formatDurationMs, formatExact, unitOfField } from '../../webview/shared/format';
import { stageIdOfKey, stageLabel } from '../../webview/shared/labels';
import { headlineWords, statusHeadline, statusWords } from '../../webview/shared/sessionStatus';
import { cardLabel, edgeLabel } from '../../webview/shared/labels';
import { endToEndCellView, endToEndView } from '../../webview/shared/valueState';
import type { AnalyzedRequest } from '../../server/protocol';
import {
  distributionView,
  fieldCellView,
  fieldValueView,
  splitCellView,
  splitValueView,
  summaryFieldView,
  summarySplitView,
} from '../../webview/shared/valueState';

const NAMES: SplitName[] = ['queuedMs', 'inputWaitMs', 'readyQueuedMs', 'prefillMs', 'decodeMs', 'ttftMs'];

function stageWith(
  values: Partial<Record<SplitName, number | null>>,
  states: Partial<Record<SplitName, SplitState>>,
  fields: RequestStage['fields'] = {},
): RequestStage {
  const v = Object.fromEntries(NAMES.map((n) => [n, values[n] ?? null])) as Record<SplitName, number | null>;
  const s = Object.fromEntries(NAMES.map((n) => [n, states[n] ?? 'hidden'])) as Record<SplitName, SplitState>;
  return { stageKey: '1', stageId: 1, segment: 1, replicaId: 0, kind: 'llm', fields, split: { values: v, states: s } };
}

const counts = (c: Partial<Record<SplitState, number>>): Record<SplitState, number> => ({
  measured: 0,
  notMeasured: 0,
  hidden: 0,
  notRecorded: 0,
  inferred: 0,
  ...c,
});
const dist = (p50: number, count = 10) => ({ count, mean: p50, p50, p90: p50 * 2, p99: p50 * 3, max: p50 * 4 });

function summaryStage(over: Partial<StageSummary>): StageSummary {
  return {
    stageKey: '1',
    stageId: 1,
    replicaId: null,
    requestCount: 10,
    fields: {},
    split: {},
    splitStates: Object.fromEntries(NAMES.map((n) => [n, counts({})])) as StageSummary['splitStates'],
    fieldsNotRecorded: {},
    addedTimeToFirstOutputMs: null,
    oneOutputRequests: 0,
    oneOutputSplitStates: { prefillMs: counts({}), decodeMs: counts({}) },
    prefillDecodeMs: null,
    ...over,
  };
}

describe('number formatting', () => {
  test('compact cells shrink precision as values grow and keep a plain 0', () => {
    assert.equal(formatCompact(0), '0');
    assert.equal(formatCompact(0.456), '0.46');
    assert.equal(formatCompact(12.34), '12.3');
    assert.equal(formatCompact(86443.123), '86,443');
    assert.equal(formatCompact(-3.2), '-3.20');
  });

  test('exact values keep the 3 printed decimals', () => {
    assert.equal(formatExact(86443.1234), '86,443.123');
  });

  test('durations pick ms, s or min', () => {
    assert.equal(formatDurationMs(0), '0 ms');
    assert.equal(formatDurationMs(151.2), '151 ms');
    assert.equal(formatDurationMs(1820), '1.82 s');
    assert.equal(formatDurationMs(86_443), '1 min 26 s');
  });

  test('units come from field name suffixes', () => {
    assert.equal(unitOfField('vllm_prefill_ms'), 'ms');
    assert.equal(unitOfField('audio_duration_s'), 's');
    assert.equal(unitOfField('num_tokens_out'), '');
  });

  test('stage labels use the role name when known', () => {
    assert.equal(stageLabel('1', { '1': 'code2wav' }), 'stage 1 · code2wav');
    assert.equal(stageLabel('1_2', { '1': 'code2wav' }), 'stage 1_2 · code2wav');
    assert.equal(stageLabel('3', {}), 'stage 3');
    assert.equal(stageIdOfKey('2_3'), '2');
  });
});

describe('value states of one request stage', () => {
  test('a measured 0 is the number 0, explained as a real zero', () => {
    const v = splitValueView(stageWith({ readyQueuedMs: 0 }, { readyQueuedMs: 'measured' }), 'readyQueuedMs');
    assert.deepEqual([v.text, v.state, v.value], ['0', 'measured', 0]);
    assert.match(v.title, /real zero/);
  });

  test('the four states that are not numbers read as words, never 0', () => {
    const s = stageWith({}, { inputWaitMs: 'notMeasured', prefillMs: 'hidden', ttftMs: 'notRecorded' });
    const nm = splitValueView(s, 'inputWaitMs');
    const hd = splitValueView(s, 'prefillMs');
    const nr = splitValueView(s, 'ttftMs');
    assert.deepEqual([nm.text, nm.state, nm.value], ['not measured', 'notMeasured', null]);
    assert.deepEqual([hd.text, hd.state, hd.value], ['hidden', 'hidden', null]);
    assert.deepEqual([nr.text, nr.state, nr.value], ['not recorded', 'notRecorded', null]);
    assert.match(nm.title, /None/);
    assert.match(hd.title, /zero or not measured/);
    assert.match(nr.title, /codec first-audio signature/);
    assert.match(nr.title, /vllm_ttft_ms/);
  });

  test('an inferred value is marked and explained by its rule', () => {
    const v = splitValueView(stageWith({ readyQueuedMs: 0 }, { readyQueuedMs: 'inferred' }), 'readyQueuedMs');
    assert.deepEqual([v.text, v.state], ['≈0', 'inferred']);
    assert.match(v.title, /Inferred/);
  });

  test('cell views (no title, written while scrolling) agree with the full views', () => {
    const states: SplitState[] = ['measured', 'notMeasured', 'hidden', 'notRecorded', 'inferred'];
    for (const st of states) {
      const value = st === 'measured' || st === 'inferred' ? 12.5 : null;
      const s = stageWith(
        { prefillMs: value },
        { prefillMs: st },
        { f: measured(3), g: NOT_MEASURED, t: { state: 'text', value: 'audio' } },
      );
      const full = splitValueView(s, 'prefillMs');
      assert.deepEqual(splitCellView(s, 'prefillMs'), { text: full.text, state: full.state, value: full.value });
      for (const f of ['f', 'g', 't', 'absent']) {
        const fv = fieldValueView(s, f, 'ms');
        assert.deepEqual(fieldCellView(s, f), { text: fv.text, state: fv.state, value: fv.value });
      }
    }
    assert.equal(splitCellView(undefined, 'prefillMs').state, 'empty');
  });

  test('a request that did not run on a stage is empty', () => {
    assert.equal(splitValueView(undefined, 'prefillMs').state, 'empty');
    assert.equal(fieldValueView(undefined, 'stage_gen_time_ms', 'ms').state, 'empty');
  });

  test('fields: absent is hidden, None is not measured, text stays text, list cells name their sample count', () => {
    const s = stageWith({}, {}, { a: NOT_MEASURED, b: { state: 'text', value: '<b>audio</b>' }, c: measured(12.5, 4) });
    assert.equal(fieldValueView(s, 'missing', 'ms').state, 'hidden');
    assert.equal(fieldValueView(s, 'a', 'ms').text, 'not measured');
    assert.deepEqual([fieldValueView(s, 'b', '').text, fieldValueView(s, 'b', '').state], ['<b>audio</b>', 'text']);
    assert.match(fieldValueView(s, 'c', 'ms').title, /Mean of 4 samples/);
  });
});

describe('value states of a stage summary', () => {
  test('a percentile over numbers only, with what was left out in the title', () => {
    const st = summaryStage({
      split: { ttftMs: dist(133, 4) },
      splitStates: { ...summaryStage({}).splitStates, ttftMs: counts({ measured: 4, notRecorded: 6 }) },
    });
    const v = summarySplitView(st, 'ttftMs', 'p90');
    assert.deepEqual([v.text, v.state, v.value, v.partial], ['266', 'measured', 266, true]);
    assert.match(v.title, /6 not recorded/);
    assert.match(v.title, /never counted as 0/);
  });

  test('no number at all: the state that explains most is shown', () => {
    const base = summaryStage({}).splitStates;
    const nr = summarySplitView(
      summaryStage({ splitStates: { ...base, ttftMs: counts({ notRecorded: 10 }) } }),
      'ttftMs',
      'p50',
    );
    assert.deepEqual([nr.text, nr.state], ['not recorded', 'notRecorded']);
    const nm = summarySplitView(
      summaryStage({ splitStates: { ...base, inputWaitMs: counts({ notMeasured: 8, hidden: 2 }) } }),
      'inputWaitMs',
      'p50',
    );
    assert.equal(nm.state, 'notMeasured');
    const hd = summarySplitView(
      summaryStage({ splitStates: { ...base, prefillMs: counts({ hidden: 10 }) } }),
      'prefillMs',
      'p50',
    );
    assert.equal(hd.state, 'hidden');
  });

  test('only inferred values are marked as inferred', () => {
    const base = summaryStage({}).splitStates;
    const v = summarySplitView(
      summaryStage({
        split: { readyQueuedMs: dist(0) },
        splitStates: { ...base, readyQueuedMs: counts({ inferred: 10 }) },
      }),
      'readyQueuedMs',
      'p50',
    );
    assert.deepEqual([v.text, v.state], ['≈0', 'inferred']);
  });

  test('fields: partial populations are flagged; absence is hidden or empty as asked', () => {
    const st = summaryStage({ fields: { stage_gen_time_ms: dist(500, 7) } });
    const v = summaryFieldView(st, 'stage_gen_time_ms', 'ms', 'p50', 'hidden');
    assert.deepEqual([v.text, v.partial], ['500', true]);
    assert.match(v.title, /3 of 10 requests/);
    assert.equal(summaryFieldView(st, 'audio_duration_s', 's', 'p50', 'empty').state, 'empty');
    assert.equal(summaryFieldView(st, 'serving_time_to_first_output_ms', 'ms', 'p50', 'hidden').state, 'hidden');
  });

  test('added time to first output: empty with the reason when not computable', () => {
    assert.equal(distributionView(null, 'p50', 'added', 'why').title, 'added: why');
    assert.equal(distributionView(dist(40), 'p99', 'added', 'why').text, '120');
  });
});

describe('end to end of one request', () => {
  test('e2e_total_ms, else [OmniTiming] total=, else not measured (None) or not printed: never 0', () => {
    const request = (e2e: AnalyzedRequest['e2e'], totalS: number | null) =>
      ({ e2e, timing: totalS === null ? null : { totalS } }) as unknown as AnalyzedRequest;
    const cases: [AnalyzedRequest, string, string, number | null][] = [
      [request({ e2e_total_ms: { state: 'measured', value: 2793.151 } }, 2.79), '2,793', 'measured', 2793.151],
      [request({}, 0.74), '740', 'measured', 740],
      [request({ e2e_total_ms: { state: 'notMeasured' } }, null), 'not measured', 'notMeasured', null],
      [request({}, null), 'not printed', 'notMeasured', null],
    ];
    for (const [r, text, state, value] of cases) {
      assert.deepEqual(endToEndCellView(r), { text, state, value });
      const view = endToEndView(r);
      assert.deepEqual([view.text, view.state, view.value], [text, state, value]);
    }
    assert.match(
      endToEndView(request({}, null)).title,
      /neither a RequestE2EStats table .* nor an \[OmniTiming\] line/,
    );
  });
});

describe('labels', () => {
  test('a card label may wrap after "+" or "/" (a zero-width space), never inside a word; an edge reads 0 → 1', () => {
    assert.equal(cardLabel('receive+decode'), 'receive+\u200bdecode');
    assert.equal(cardLabel('size (KB)'), 'size (KB)');
    assert.equal(cardLabel('input / output'), 'input / output');
    assert.equal(edgeLabel('0->1'), '0 → 1');
    assert.equal(edgeLabel('12->3'), '12 → 3');
  });
});

describe('session status in words', () => {
  test("the status bar headline: the last stage's time to first output p50 in the views' format, else end to end", () => {
    const dist = (p50: number) => ({ count: 3, mean: p50, p50, p90: p50, p99: p50, max: p50 });
    const stage = (stageId: number, replicaId: number | null, firstOutputP50: number | null) => ({
      stageId,
      stageKey: String(stageId),
      replicaId,
      fields: firstOutputP50 === null ? {} : { serving_time_to_first_output_ms: dist(firstOutputP50) },
    });
    const summary = (stages: ReturnType<typeof stage>[], endToEndP50: number | null) =>
      ({
        stages,
        endToEnd: endToEndP50 === null ? null : { ms: dist(endToEndP50), fromOmniTiming: 0 },
      }) as unknown as Parameters<typeof statusHeadline>[0];
    assert.equal(
      statusHeadline(summary([stage(0, null, 12.5), stage(1, null, 33725.31)], 40000)),
      '1st output p50 33.7 s',
    );
    assert.equal(statusHeadline(summary([stage(0, null, 1), stage(1, null, 41.27)], null)), '1st output p50 41.3 ms');
    // a replica's summary after its stage's: the stage over all replicas is the headline
    assert.equal(
      statusHeadline(summary([stage(0, null, 1), stage(1, null, 5.678), stage(1, 0, 900)], null)),
      '1st output p50 5.68 ms',
    );
    // The stage roles known: the last stage's first output is named as the side panel and explain name it.
    const tts = summary([stage(0, null, 12.5), stage(1, null, 1275)], 40000);
    assert.equal(statusHeadline(tts, { '0': 'talker', '1': 'code2wav' }), '1st audio p50 1.28 s');
    assert.deepEqual(headlineWords(tts, { '0': 'talker', '1': 'code2wav' }), {
      text: '1st audio p50 1.28 s',
      name: 'p50 time to first audio (stage 1 · code2wav)',
      short: '1st audio',
    });
    assert.equal(statusHeadline(tts, { '0': 'thinker', '1': 'talker' }), '1st output p50 1.28 s');
    assert.equal(
      headlineWords(tts, { '0': 'thinker', '1': 'talker' })?.name,
      'p50 stage 1 time to first output (talker)',
    );
    // an INFO-level log: no stage tables, end to end from [OmniTiming]
    assert.equal(statusHeadline(summary([], 2793.1)), 'e2e p50 2.79 s');
    assert.equal(statusHeadline(summary([], null)), null);
    assert.equal(statusHeadline(null), null);
  });

  test('an import that read its file is "imported", never "exited"; a process still exits', () => {
    assert.equal(statusWords({ kind: 'import', status: 'exited', exit: null }), 'imported');
    assert.equal(statusWords({ kind: 'import', status: 'running', exit: null }), 'importing');
    assert.equal(statusWords({ kind: 'import', status: 'stopped', exit: null }), 'import stopped');
    assert.equal(statusWords({ kind: 'launch', status: 'exited', exit: null }), 'exited');
    assert.equal(statusWords({ kind: 'launch', status: 'running', exit: null }), 'running');
  });

  test('an ended process says how it ended: exit code or signal', () => {
    assert.equal(
      statusWords({ kind: 'launch', status: 'exited', exit: { code: 3, signal: null } }),
      'exited (exit code 3)',
    );
    assert.equal(
      statusWords({ kind: 'attach', status: 'crashed', exit: { code: null, signal: 'SIGKILL' } }),
      'crashed (signal SIGKILL)',
    );
    assert.equal(statusWords({ kind: 'import', status: 'exited', exit: { code: 0, signal: null } }), 'imported');
  });
});
