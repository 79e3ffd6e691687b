// The histogram query keeps the states apart: inferred numbers are binned but counted apart
// (per bin too) and mark the percentiles that read them; a one-output stage's decode and
// intervals between outputs are counted, never binned. A packed request store (a session's)
// and plain requests answer alike. Real logs: the simulator's Qwen3-TTS run and upstream's
// before-fix talker.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { histogramOf } from '../../server/capture/requestQueries';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { RequestStore } from '../../server/core/analysis/requestStore';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { LogStreamParser } from '../../server/core/log';
import type { HistogramParams } from '../../server/protocol';

const FIXTURES = path.join(import.meta.dirname, '../fixtures');

function requestsOf(log: string): AnalyzedRequest[] {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(fs.readFileSync(path.join(FIXTURES, log))));
  analysis.ingest(parser.end());
  analysis.flush();
  return [...analysis.snapshot().requests];
}

function storeOf(requests: readonly AnalyzedRequest[]): RequestStore {
  const store = new RequestStore();
  for (const r of requests) store.add(r);
  return store;
}

const params = (stageKey: string, metric: string): HistogramParams => ({ sessionId: 's', stageKey, metric, bins: 40 });

describe('inferred numbers: code2wav ready queued', () => {
  const requests = requestsOf('logs/code2wav-ready-queued-inferred.log');

  test('binned, counted apart overall and per bin; only the percentile that reads one is marked', () => {
    for (const list of [requests, storeOf(requests)]) {
      const h = histogramOf(list, params('1', 'split:readyQueuedMs'));
      assert.equal(h.distribution?.count, 8);
      assert.equal(h.inferred, 6);
      assert.equal(h.inferredCounts[0], 6);
      assert.equal(h.counts[0], 6);
      assert.equal(
        h.inferredCounts.reduce((a, b) => a + b, 0),
        6,
      );
      assert.deepEqual(h.inferredPercentiles, ['p50']);
      assert.deepEqual([h.notMeasured, h.hidden, h.notRecorded, h.oneOutput], [0, 0, 0, 0]);
    }
  });

  test('the measured values alone: nothing inferred, nothing marked', () => {
    const h = histogramOf(requests, params('1', 'split:inputWaitMs'));
    assert.deepEqual([h.inferred, h.inferredPercentiles.length], [0, 0]);
    assert.ok(h.inferredCounts.every((n) => n === 0));
  });
});

describe('a one-output stage: the before-fix talker', () => {
  const requests = requestsOf('upstream-rendered/qwen3tts-talker-first-audio-before-fix.log');

  for (const [field, printed, hidden] of [
    ['vllm_itl_ms', 4, 2],
    ['time_per_output_unit_ms', 6, 0],
  ] as const) {
    test(`${field}: its printed 0s are counted as one output, none binned`, () => {
      for (const list of [requests, storeOf(requests)]) {
        const h = histogramOf(list, params('0', `field:${field}`));
        assert.deepEqual([h.counts.length, h.distribution], [0, null]);
        assert.deepEqual([h.oneOutput, h.hidden, h.notRecorded, h.notMeasured], [printed, hidden, 0, 0]);
      }
    });
  }

  test('a printed decode 0 of a one-output talker (preempted run): counted as one output, not a bar at 0', () => {
    const talker = requestsOf('logs/preempted-one-output.log');
    for (const list of [talker, storeOf(talker)]) {
      const h = histogramOf(list, params('0', 'split:decodeMs'));
      assert.deepEqual([h.counts.length, h.oneOutput, h.hidden], [0, 12, 0]);
    }
  });

  test('the downstream codec is not one output: its fields are binned as printed', () => {
    const h = histogramOf(storeOf(requests), params('1', 'field:stage_gen_time_ms'));
    assert.deepEqual([h.distribution?.count, h.oneOutput], [6, 0]);
  });
});
