// Headline numbers that cannot mislead: histogram quantiles that are bounds, compare's flag
// (beyond noise AND above a practical threshold AND enough values for the quantile, in
// words), true finding counts, and one meaning of "slowest".
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { histogramQuantile } from '../../server/core/metricsText/histogramQuantile';
import { quantileBounds, quantileBoundsFromJson } from '../../server/core/metricsText/quantileBounds';
import { histogramSummariesFromJson, summarizeScrape } from '../../server/core/metricsText/scrapeSummary';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { changeThresholdMs, DEFAULT_SIGNIFICANCE, quantileMinSamples } from '../../server/core/compare/metricCompare';
import { changeKind, changeText } from '../../server/core/compare/changeWords';
import { compareTable } from '../../server/core/compare/tableReport';
import { compareMarkdown } from '../../server/core/compare/markdownReport';
import { checkRules } from '../../server/core/compare/ruleCheck';
import { parseRules } from '../../server/core/compare/rules';
import { bootstrapRandom } from '../../server/core/compare/bootstrapRandom';
import type { HistogramRow, MetricId, MetricSamples, RunData } from '../../server/core/compare/types';
import { headline, significanceOf, stageGroups } from '../../webview/compare/model';
import { findingOptions } from '../../webview/latencyPanel/table/findingOptions';
import { requestsText } from '../../server/core/report/tableReport';
import {
  isRankedSegment,
  rankedPhases,
  slowestStageAmong,
  SLOWEST_STAGE_TEXT,
} from '../../server/core/analysis/slowest';
import { measured } from '../../server/core/values';
import type { Finding } from '../../server/core/analysis/types';
import { scrapeCellView } from '../../webview/sidePanel/scrapeModel';
import { edgeModel } from '../../webview/sidePanel/edgeModel';
import { runSamplesFromAnalysis } from '../../server/core/compare/runSamples';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** vLLM's request-latency buckets (seconds) with cumulative counts. */
const LATENCY_LE = [
  0.3,
  0.5,
  0.8,
  1.0,
  1.5,
  2.0,
  2.5,
  5.0,
  10.0,
  15.0,
  20.0,
  30.0,
  40.0,
  50.0,
  60.0,
  120.0,
  240.0,
  480.0,
  960.0,
  1920.0,
  7680.0,
  Infinity,
];
const buckets = (counts: (le: number) => number) => LATENCY_LE.map((le) => ({ le, cumulative: counts(le) }));

describe('histogram quantiles that are bounds', () => {
  test('every observation in the lowest bucket: PromQL reads 150 ms, the truth is "at most 300 ms"', () => {
    const b = buckets(() => 25);
    assert.equal(histogramQuantile(0.5, b), 0.15, 'what histogram_quantile returns: halfway into [0, 0.3]');
    assert.deepEqual(quantileBounds(b), {
      p50: { kind: 'atMost', le: 0.3 },
      p90: { kind: 'atMost', le: 0.3 },
      p99: { kind: 'atMost', le: 0.3 },
    });
  });

  test('p50 in the lowest bucket, p90 interpolated between finite bounds, p99 beyond the highest', () => {
    // 60 of 100 at <= 0.3 s, 95 at <= 1.0 s, 98 at <= 7680 s, 2 beyond.
    const b = buckets((le) => (le <= 0.3 ? 60 : le <= 0.8 ? 80 : le < Infinity ? (le <= 1 ? 95 : 98) : 100));
    assert.deepEqual(quantileBounds(b), { p50: { kind: 'atMost', le: 0.3 }, p99: { kind: 'atLeast', le: 7680 } });
    assert.ok(
      Math.abs(histogramQuantile(0.9, b) - (0.8 + 0.2 * (10 / 15))) < 1e-12,
      'p90 is an interpolation, not a bound',
    );
  });

  test('no observations, no +Inf bucket, unsorted and repeated bounds: what histogram_quantile does', () => {
    assert.deepEqual(quantileBounds(buckets(() => 0)), {});
    assert.deepEqual(
      quantileBounds([
        { le: 0.3, cumulative: 4 },
        { le: 0.5, cumulative: 4 },
      ]),
      {},
    );
    assert.deepEqual(
      quantileBounds([
        { le: Infinity, cumulative: 4 },
        { le: 0.5, cumulative: 4 },
        { le: 0.5, cumulative: 0 },
      ]),
      { p50: { kind: 'atMost', le: 0.5 }, p90: { kind: 'atMost', le: 0.5 }, p99: { kind: 'atMost', le: 0.5 } },
    );
  });

  test('a scrape row carries them (JSON "bounds"), and a saved scrape reads them back; junk is dropped', () => {
    const body =
      [
        '# TYPE vllm:request_queue_time_seconds histogram',
        ...LATENCY_LE.map(
          (le) => `vllm:request_queue_time_seconds_bucket{stage="0",le="${le === Infinity ? '+Inf' : le}"} 12`,
        ),
        'vllm:request_queue_time_seconds_count{stage="0"} 12',
        'vllm:request_queue_time_seconds_sum{stage="0"} 0.0024',
      ].join('\n') + '\n';
    const [row] = summarizeScrape(body).histograms;
    assert.equal(row?.p50, 0.15);
    assert.deepEqual(row?.bounds?.p50, { kind: 'atMost', le: 0.3 });
    const back = histogramSummariesFromJson(JSON.parse(JSON.stringify([row])));
    assert.deepEqual(back[0]?.bounds, row?.bounds);
    assert.deepEqual(
      quantileBoundsFromJson({
        p50: { kind: 'exact', le: 1 },
        p90: { kind: 'atMost', le: 'x' },
        p99: { kind: 'atLeast', le: 2 },
      }),
      { p99: { kind: 'atLeast', le: 2 } },
    );
    // The side panel's cell: the bound, never the interpolation.
    const view = scrapeCellView(row, 'vllm:request_queue_time_seconds', 'p50');
    assert.equal(view.text, '≤300');
    assert.equal(view.value, 300);
    assert.match(view.title, /at most 300 ms: every observation up to this rank fell into the lowest bucket/);
  });

  test('compare: bounds are shown as bounds, with no difference between them; a rule on one is not evaluated', () => {
    const row = (p50: number, bound: boolean): HistogramRow => ({
      family: 'vllm:request_queue_time_seconds',
      labels: { stage: '0' },
      count: 40,
      p50,
      p90: 0.6,
      p99: 0.9,
      openEnded: [],
      bounds: bound ? { p50: { kind: 'atMost', le: 0.3 } } : {},
      caveat: null,
    });
    const scrape = (r: HistogramRow): RunData => ({
      source: 's.prom',
      kind: 'scrape',
      samples: null,
      histograms: [r],
      problemCount: 0,
    });
    const report = compareRuns(scrape(row(0.15, true)), scrape(row(0.2, false)));
    const table = compareTable(report).join('\n');
    assert.match(table, /vllm:request_queue_time_seconds +stage=0 +40\/40 +p50 +≤ 300\.0 +200\.0 +bound/);
    assert.match(compareMarkdown(report), /≤ 300\.0 → 200\.0 \|/);
    const [rule] = checkRules(parseRules(['stage0.queued.p50 > +10%']).rules, report);
    assert.equal(rule?.outcome, 'notEvaluated');
    assert.match(
      rule?.detail ?? '',
      /lies in the lowest bucket of vllm:request_queue_time_seconds in the baseline: only an upper bound \(≤ 300 ms\) is known/,
    );
  });
});

function normal(n: number, mean: number, sd: number, seed: number): number[] {
  const r = bootstrapRandom(seed);
  return Array.from({ length: n }, () => mean + sd * r.normal());
}
const m = (values: readonly number[]): MetricSamples => ({
  values: Float64Array.from(values).sort(),
  inferred: 0,
  unknown: {},
});

function logRun(metrics: Record<string, Partial<Record<MetricId, MetricSamples>>>, n: number): RunData {
  return {
    source: 'x.log',
    kind: 'log',
    histograms: null,
    problemCount: 0,
    samples: {
      requestCount: n,
      coldRequests: 0,
      coldExcluded: false,
      findings: [],
      scopes: Object.entries(metrics).map(([scope, ms]) => ({
        scope,
        stageId: scope === 'request' ? null : Number(scope),
        requestCount: n,
        metrics: ms,
      })),
    },
  };
}

describe('compare flags a change only when it matters', () => {
  test('the rule: max(0.1 ms, 1% of the baseline); p50/p90 need 10 values, p99 100', () => {
    assert.equal(changeThresholdMs(3), 0.1);
    assert.equal(changeThresholdMs(250), 2.5);
    assert.equal(changeThresholdMs(250, { minChangeMs: 5, minChangePct: 1 }), 5);
    assert.deepEqual([quantileMinSamples('p50'), quantileMinSamples('p90'), quantileMinSamples('p99')], [10, 10, 100]);
  });

  test('0.01 ms at n=25: beyond noise, but below the threshold (p50, p90) and too few values (p99): nothing flagged', () => {
    // A quiet stage: 25 values within 2 µs, then all 10 µs later.
    const base = Array.from({ length: 25 }, (_, i) => 4 + (i % 3) * 0.001);
    const cand = base.map((v) => Math.round((v + 0.01) * 1000) / 1000);
    const report = compareRuns(logRun({ '1': { ttft: m(base) } }, 25), logRun({ '1': { ttft: m(cand) } }, 25));
    const q = report.metrics[0]!.quantiles;
    assert.deepEqual(
      q.map((x) => x.beyondNoise),
      [true, true, true],
      'every value moved by +0.01: the CI excludes 0',
    );
    assert.deepEqual(
      q.map((x) => x.verdict),
      ['belowThreshold', 'belowThreshold', 'fewSamples'],
    );
    const table = compareTable(report).join('\n');
    assert.doesNotMatch(table, /\* (longer|shorter)/);
    assert.doesNotMatch(table, /Too few requests/, 'tested quantiles: no "too few" line');
    assert.match(table, /p50 .*≤ 0\.100 ms/);
    assert.match(table, /p99 .*p99 needs n ≥ 100/);
    assert.match(
      report.notes.join('\n'),
      /Beyond noise but not flagged as a change: 2 no larger than the practical threshold \(0\.1 ms or 1% of the baseline\); 1 with fewer values than the quantile needs \(p99: 100\)/,
    );
    assert.equal(headline(report).up + headline(report).down, 0);
    assert.match(
      compareMarkdown(report),
      /\*\*Changed:\*\* nothing beyond noise and above the larger of 0\.1 ms and 1% of the baseline \(3 beyond noise/,
    );
    // A smaller threshold (CLI --min-change-ms 0.001 --min-change-pct 0) flags p50 and p90, never the p99 at n=25.
    const strict = compareRuns(logRun({ '1': { ttft: m(base) } }, 25), logRun({ '1': { ttft: m(cand) } }, 25), {
      significance: { ...DEFAULT_SIGNIFICANCE, minChangeMs: 0.001, minChangePct: 0 },
    });
    assert.deepEqual(
      strict.metrics[0]!.quantiles.map((x) => x.verdict),
      ['changed', 'changed', 'fewSamples'],
    );
    assert.match(compareTable(strict).join('\n'), /stage 1 TTFT: p50 0\.010 ms longer/);
  });

  test('a real shift at n=150 is flagged at every quantile, with what changed in words', () => {
    const report = compareRuns(
      logRun({ '1': { queued: m(normal(150, 50, 5, 3)) } }, 150),
      logRun({ '1': { queued: m(normal(150, 40, 5, 4)) } }, 150),
    );
    assert.deepEqual(
      report.metrics[0]!.quantiles.map((x) => x.verdict),
      ['changed', 'changed', 'changed'],
    );
    const table = compareTable(report).join('\n');
    assert.match(table, /p50 .*\* shorter/);
    assert.match(table, /What changed \(flagged \*\):\n  stage 1 queued: p50 [\d.]+ ms shorter \(-\d+\.\d%\)/);
    assert.match(
      report.method.flagged,
      /beyond noise, larger than the practical threshold \(the larger of 0\.1 ms and 1% of the baseline's quantile\), and each run has enough measured values for that quantile \(p50 10, p90 10, p99 100/,
    );
  });

  test('"+1st output" lower is not faster by colour: shifted, neutral, and its own first output cited', () => {
    // The codec's first output moves earlier relative to the talker's, while its own first output stays put:
    // the talker got slower (MRv2: its one output comes at its end), nothing got faster.
    const base = {
      '0': { firstOutput: m(normal(150, 1000, 20, 5)) },
      '1': { firstOutput: m(normal(150, 90, 3, 6)), addedFirstOutput: m(normal(150, -910, 20, 7)) },
    };
    const cand = {
      '0': { firstOutput: m(normal(150, 1200, 20, 8)) },
      '1': { firstOutput: m(normal(150, 90, 3, 9)), addedFirstOutput: m(normal(150, -1110, 20, 10)) },
    };
    const report = compareRuns(logRun(base, 150), logRun(cand, 150));
    const added = report.metrics.find((x) => x.scope === '1' && x.metric === 'addedFirstOutput')!;
    const p50 = added.quantiles[0]!;
    assert.equal(p50.verdict, 'changed');
    assert.ok(p50.diffMs < -150);
    assert.equal(changeKind('addedFirstOutput', p50), 'shifted');
    assert.equal(significanceOf(p50, 'addedFirstOutput'), 'shift', 'not "down" (green, faster)');
    assert.match(
      changeText(report, added, p50),
      /^p50 first output [\d.,]+ ms earlier relative to stage 0's first output: not faster or slower by itself \(stage 1's own 1st output p50 went [\d.,]+ → [\d.,]+ ms \((within noise|≤ [\d.]+ ms)\)\)$/,
    );
    const cells =
      stageGroups(report, true)
        .flatMap((g) => g.rows)
        .find((r) => r.key === '1.addedFirstOutput')?.cells ?? [];
    assert.equal(cells[0]?.significance, 'shift');
    assert.match(cells[0]?.note ?? '', /earlier relative to stage 0's first output/);
    const h = headline(report);
    assert.equal(h.shifted, 3);
    assert.match(h.text, /◆ 3 shifted relative to the upstream stage/);
    assert.match(compareTable(report).join('\n'), /^1 +\+1st output +150\/150 +p50 .*\* shifted/m);
  });
});

describe('true counts and one meaning of "slowest"', () => {
  const finding = (code: Finding['code'], stageId: number | null, requestCount: number): Finding => ({
    code,
    severity: 'info',
    stageId,
    requestIds: ['a', 'b'].slice(0, Math.min(2, requestCount)),
    requestCount,
    message: '',
  });

  test('a finding is shown with requestCount, not the length of its capped id list', () => {
    assert.equal(requestsText(finding('cold-start', null, 339)), '339 requests');
    assert.deepEqual(
      findingOptions([
        finding('cold-start', null, 339),
        finding('negative-interval', 0, 3),
        finding('negative-interval', 1, 1),
        finding('truncated-record', null, 1),
      ]),
      [
        ['cold-start', 'cold-start (339 requests)'],
        ['negative-interval', 'negative-interval (stage 0: 3, stage 1: 1 requests)'],
        ['truncated-record', 'truncated-record (1 request)'],
      ],
    );
  });

  test("slowest phase: a stage's own work; a downstream stage's wait for its input is not ranked", () => {
    // The first stage: its input split, or queued without it, is its own queueing.
    assert.deepEqual(rankedPhases(true, false, false), ['inputWaitMs', 'readyQueuedMs', 'prefillMs', 'decodeMs']);
    assert.deepEqual(rankedPhases(false, false, false), ['queuedMs', 'prefillMs', 'decodeMs']);
    // A one-output stage's prefill+decode competes as one phase, named as such.
    assert.deepEqual(rankedPhases(false, true, false), ['queuedMs', 'prefillDecodeMs']);
    // Downstream: ready queued is its own; input wait, and queued without the split, are the upstream's time.
    assert.deepEqual(rankedPhases(true, false, true), ['readyQueuedMs', 'prefillMs', 'decodeMs']);
    assert.deepEqual(rankedPhases(false, false, true), ['prefillMs', 'decodeMs']);
    assert.deepEqual(
      ['inputWait', 'queued', 'readyQueued', 'prefillDecode', 'stage'].map((p) =>
        [false, true].map((downstream) => isRankedSegment(p as 'queued', downstream)),
      ),
      [
        [true, false],
        [true, false],
        [true, true],
        [true, true],
        [false, false],
      ],
    );
  });

  test('slowest stage: the largest measured stage_gen_time_ms, named as such', () => {
    const gen = { '0': measured(1275), '1': measured(1417), '2': { state: 'notMeasured' as const } };
    assert.equal(
      slowestStageAmong(['0', '1', '2'], (k) => gen[k as '0']),
      '1',
    );
    assert.equal(
      slowestStageAmong(['2'], (k) => gen[k as '2']),
      null,
    );
    assert.equal(SLOWEST_STAGE_TEXT, 'slowest stage by stage_gen_time_ms');
  });
});

describe('transfer edges in compare and in the side panel model', () => {
  const DIR = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');
  const analyse = (file: string) => {
    const analysis = new StreamAnalysis();
    const parser = new LogStreamParser();
    analysis.ingest(parser.push(readFileSync(path.join(DIR, file))));
    analysis.ingest(parser.end());
    analysis.flush();
    return analysis.snapshot();
  };
  const run = (file: string): RunData => {
    const snapshot = analyse(file);
    return {
      source: file,
      kind: 'log',
      histograms: null,
      problemCount: 0,
      samples: runSamplesFromAnalysis(snapshot, false),
    };
  };

  test('each edge is a scope: send, in flight, receive+decode from TransferEdgeStats, [OmniTiming] send apart', () => {
    const snapshot = analyse('qwen3-omni-three-stage-transfers.log');
    const samples = runSamplesFromAnalysis(snapshot, false);
    assert.deepEqual(
      samples.scopes.map((s) => s.scope),
      ['0', '1', '2', '0->1', '1->2', 'request'],
    );
    const e01 = samples.scopes.find((s) => s.scope === '0->1')!;
    const printed = (field: string): number[] =>
      snapshot.requests
        .map((r) => (r.transfers.find((t) => t.edge === '0->1')?.fields[field] as { value: number }).value)
        .sort((a, b) => a - b);
    assert.deepEqual([...(e01.metrics.edgeTx?.values ?? [])], printed('tx_time_ms'));
    assert.deepEqual([...(e01.metrics.edgeInFlight?.values ?? [])], printed('in_flight_time_ms'));
    assert.deepEqual([...(e01.metrics.edgeRxDecode?.values ?? [])], printed('rx_decode_time_ms'));
    assert.deepEqual(
      [...(e01.metrics.edgeOmniTimingTx?.values ?? [])],
      snapshot.requests
        .map((r) => r.transfers.find((t) => t.edge === '0->1')?.omniTimingTxMs as number)
        .sort((a, b) => a - b),
    );
    const report = compareRuns(
      run('qwen3-omni-three-stage-transfers.log'),
      run('qwen3-omni-three-stage-transfers.log'),
    );
    const row = report.metrics.find((m) => m.scope === '0->1' && m.metric === 'edgeRxDecode')!;
    assert.equal(row.status, 'compared');
    assert.deepEqual(
      row.quantiles.map((q) => q.diffMs),
      [0, 0, 0],
    );
    assert.match(compareTable(report).join('\n'), /^0 → 1 +receive\+decode +3\/3 +p50 /m);
    // The files name the pipeline (Qwen3-Omni): each stage's group is named with its role, as the CLI's rows are.
    assert.deepEqual(
      stageGroups(report, false).map((g) => g.title),
      [
        'Stage 0 · thinker',
        'Stage 1 · talker',
        'Stage 2 · code2wav',
        'Transfer 0 → 1',
        'Transfer 1 → 2',
        'Request (end to end)',
      ],
    );
    assert.match(compareTable(report).join('\n'), /^2 · code2wav +queued +3\/3 +p50 /m);
    assert.deepEqual(report.stageRoles, { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
  });

  test('[OmniTiming] 0.00 under async chunk: "not recorded", never a 0 ms send to compare', () => {
    const report = compareRuns(
      run('qwen3tts-talker-first-audio-before-fix.log'),
      run('qwen3tts-talker-first-audio-after-fix.log'),
    );
    const tx = report.metrics.find((m) => m.scope === '0->1' && m.metric === 'edgeOmniTimingTx')!;
    assert.equal(tx.status, 'neither');
    assert.deepEqual([tx.baseline.unknown, tx.candidate.unknown], [{ notRecorded: 6 }, { notRecorded: 6 }]);
    assert.deepEqual(
      parseRules(['stage0.edgeTx.p50 > +10%']).errors.map((e) => e.message),
      ["'edgeTx' is a transfer-edge metric: rules name stages and the request, not edges (the comparison shows edges)"],
    );
  });

  test('side panel model: a row per edge at the percentile shown; states counted, not 0', () => {
    const omni = analyse('qwen3-omni-three-stage-transfers.log');
    const model = edgeModel(omni.edges, 'p90', { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
    assert.deepEqual(
      model.columns.map((c) => c.id),
      ['field:tx_time_ms', 'field:in_flight_time_ms', 'field:rx_decode_time_ms', 'field:size_kbytes', 'omniTimingTx'],
    );
    assert.deepEqual(
      model.rows.map((r) => [r.key, r.label, r.role, r.requestCount]),
      [
        ['0->1', '0 → 1', 'thinker → talker', 3],
        ['1->2', '1 → 2', 'talker → code2wav', 3],
      ],
    );
    assert.equal(model.rows[0]?.cells['field:tx_time_ms']?.value, omni.edges[0]?.fields['tx_time_ms']?.p90);
    // hovers name the edge as its row does
    assert.match(model.rows[0]?.cells['field:tx_time_ms']?.title ?? '', /^0 → 1 tx_time_ms p90: /);
    const tts = analyse('qwen3tts-talker-first-audio-after-fix.log');
    const tx = edgeModel(tts.edges, 'p50', {}).rows[0]?.cells['omniTimingTx'];
    assert.deepEqual([tx?.text, tx?.state, tx?.value], ['not recorded', 'notRecorded', null]);
  });
});
