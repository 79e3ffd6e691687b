// The Compare Sessions panel's model (DOM-free): significance marks, the CI bar around 0,
// one-sided rows in words, the "only beyond noise" filter and the headline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { scrapeRun } from '../../server/capture/compareInput';
import { bootstrapRandom } from '../../server/core/compare/bootstrapRandom';
import type { MetricSamples, QuantileComparison, RunData } from '../../server/core/compare/types';
import {
  ciBar,
  headline,
  histogramCountsText,
  runFacts,
  significanceOf,
  stageGroups,
} from '../../webview/compare/model';
import * as fs from 'node:fs';
import { cutInto, REPLICAS_SCRAPE } from '../integration/support/cutScrape';

const q = (diffMs: number, ci: [number, number] | null): QuantileComparison => ({
  quantile: 'p50',
  baseline: 100,
  candidate: 100 + diffMs,
  diffMs,
  diffPct: diffMs,
  ci: ci === null ? null : { low: ci[0], high: ci[1] },
  beyondNoise: ci === null ? null : ci[0] > 0 || ci[1] < 0,
  notTestable: ci === null ? 'fewer than 10 measured values in a run' : null,
  thresholdMs: 1,
  minSamples: 10,
  verdict:
    ci === null
      ? 'notTestable'
      : !(ci[0] > 0 || ci[1] < 0)
        ? 'withinNoise'
        : Math.abs(diffMs) > 1
          ? 'changed'
          : 'belowThreshold',
});

test('significance: up / down only beyond noise; within noise; not testable', () => {
  assert.equal(significanceOf(q(5, [2, 8])), 'up');
  assert.equal(significanceOf(q(-5, [-8, -2])), 'down');
  assert.equal(significanceOf(q(1, [-2, 4])), 'none');
  assert.equal(significanceOf(q(1, null)), 'untestable');
});

test('CI bar: the track spans ±1.1 × the largest magnitude, 0 in the middle', () => {
  // R = 1.1 × 8 = 8.8: low 2 -> 50 + 50·2/8.8, high 8 -> 50 + 50·8/8.8, point 5.
  const bar = ciBar(q(5, [2, 8]));
  assert.ok(bar);
  assert.equal(bar.zero, 50);
  assert.ok(Math.abs(bar.low - (50 + (50 * 2) / 8.8)) < 1e-9);
  assert.ok(Math.abs(bar.high - (50 + (50 * 8) / 8.8)) < 1e-9);
  assert.ok(Math.abs(bar.point - (50 + (50 * 5) / 8.8)) < 1e-9);
  // Beyond noise <=> the range does not reach the zero line.
  const within = ciBar(q(1, [-2, 4]));
  assert.ok(within && within.low < 50 && within.high > 50);
  assert.deepEqual(ciBar(q(0, [0, 0])), { zero: 50, low: 50, high: 50, point: 50 });
  assert.equal(ciBar(q(3, null)), null);
});

function normal(n: number, mean: number, seed: number): Float64Array {
  const r = bootstrapRandom(seed);
  return Float64Array.from({ length: n }, () => mean + 5 * r.normal()).sort();
}

const m = (values: Float64Array, unknown = {}): MetricSamples => ({ values, inferred: 0, unknown });

function run(shift: number, ttftRecorded: boolean): RunData {
  return {
    source: 'x.log',
    kind: 'log',
    histograms: null,
    problemCount: 0,
    samples: {
      requestCount: 200,
      coldRequests: 0,
      coldExcluded: false,
      findings: ttftRecorded
        ? []
        : [{ code: 'ttft-not-recorded', severity: 'warning', stageId: 1, requestCount: 200, message: 'm' }],
      scopes: [
        {
          scope: '1',
          stageId: 1,
          requestCount: 200,
          metrics: {
            queued: m(normal(200, 50 + shift, 1)),
            prefill: m(normal(200, 20, 2)),
            ttft: ttftRecorded ? m(normal(200, 40, 3)) : m(new Float64Array(0), { notRecorded: 200 }),
          },
        },
      ],
    },
  };
}

test('rows per stage: compared rows with three cells, one-sided rows in words in the state of the reason', () => {
  const report = compareRuns(run(0, false), run(10, true));
  const [group] = stageGroups(report, false);
  assert.ok(group);
  assert.equal(group.title, 'Stage 1');
  assert.deepEqual(
    group.rows.map((r) => r.key),
    ['1.queued', '1.prefill', '1.ttft'],
  );
  const queued = group.rows[0];
  assert.ok(queued?.cells);
  assert.equal(queued.cells.length, 3);
  assert.equal(queued.cells[0]?.significance, 'up');
  assert.match(queued.cells[0]?.values ?? '', /^[\d.,]+ → [\d.,]+$/);
  assert.match(queued.cells[0]?.change ?? '', /^\+[\d.,]+ ms \(\+[\d.]+%\)$/);
  const ttft = group.rows[2];
  assert.equal(ttft?.cells, null);
  assert.deepEqual(ttft?.oneSided, {
    text: 'measured in the candidate only; baseline: 0 of 200 measured (200 not recorded)',
    state: 'notRecorded',
  });

  // Only beyond noise: prefill (same distribution, other draw) goes, the one-sided TTFT stays.
  const [filtered] = stageGroups(report, true);
  assert.deepEqual(
    filtered?.rows.map((r) => r.key),
    ['1.queued', '1.ttft'],
  );

  const head = headline(report);
  assert.equal(head.disappeared, 1);
  assert.equal(head.tested, 6);
  assert.ok(head.up >= 2);
  assert.match(head.text, /of 6 quantile differences changed \(▲ \d longer, ▼ 0 shorter\) · 1 finding disappeared/);
});

test('the header says "1 request" for a run of one request, "1,024 requests" grouped', () => {
  const side = compareRuns(run(0, false), run(10, true)).baseline;
  assert.deepEqual(runFacts({ ...side, requestCount: 1, histogramSeries: null }), ['1 request']);
  assert.deepEqual(runFacts({ ...side, requestCount: 1024, histogramSeries: null }), ['1,024 requests']);
});

test('histogram n: ? in a run whose scrape was cut short before the series (unknown), 0 where a whole scrape lacks it', () => {
  const whole = fs.readFileSync(REPLICAS_SCRAPE, 'utf8');
  // Cut inside stage 0's first TTFT series: the decode time family after it is not in the text read.
  const early = cutInto(
    whole,
    'vllm:time_to_first_token_seconds_bucket{model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice",stage="0",replica="0",le="5.0"}',
    ' 2'.length,
  );
  const noDecode = whole
    .split('\n')
    .filter((line) => !line.includes('vllm:request_decode_time_seconds'))
    .join('\n');
  const decode1 = (candidate: string): string => {
    const report = compareRuns(scrapeRun(whole, 'whole.prom'), scrapeRun(candidate, 'candidate.prom'));
    const row = report.histograms.find(
      (h) => h.family === 'vllm:request_decode_time_seconds' && h.labels['stage'] === '1',
    );
    assert.ok(row);
    return histogramCountsText(row);
  };
  assert.equal(decode1(early), '150 / ?');
  assert.equal(decode1(noDecode), '150 / 0');
  assert.equal(decode1(whole), '150 / 150');
});
