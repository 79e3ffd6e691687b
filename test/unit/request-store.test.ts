// The packed request store gives back exactly the requests that went in: every field,
// cell state, sample count, text cell, [OmniTiming] part, transfer edge, split and
// cross-stage figure, on every real excerpt, the crafted logs and a generated log with
// all three request shapes.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import { RequestStore } from '../../server/core/analysis/requestStore';
import { SampleSet } from '../../server/core/analysis/sampleSet';
import { endToEndOf } from '../../server/core/analysis/endToEnd';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import { measured, NOT_MEASURED } from '../../server/core/values';
import { generateBenchLog } from '../../scripts/bench/generateLog';
import { FIXTURES, realLog } from './support/logHelpers';

/** Analyses the text, returning the requests as assembled and the analysis holding them packed. */
function analyse(text: string): { originals: AnalyzedRequest[]; analysis: StreamAnalysis } {
  const originals: AnalyzedRequest[] = [];
  const analysis = new StreamAnalysis({ onRequest: (r) => originals.push(r) });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(text));
  analysis.ingest(parser.end());
  analysis.flush();
  return { originals, analysis };
}

function assertRoundTrip(name: string, text: string): number {
  const { originals, analysis } = analyse(text);
  assert.equal(analysis.requests.length, originals.length, name);
  originals.forEach((original, i) => {
    assert.deepStrictEqual(analysis.requests.at(i), original, `${name}: request ${i} (${original.requestId})`);
    assert.deepStrictEqual(
      analysis.requests.byId(original.requestId),
      original,
      `${name}: by id ${original.requestId}`,
    );
    for (const stage of original.stages)
      assert.deepStrictEqual(
        analysis.requests.stageAt(i, stage.stageKey),
        stage,
        `${name}: request ${i} stage ${stage.stageKey}`,
      );
    assert.equal(analysis.requests.stageAt(i, 'no-such-stage'), undefined);
    assert.deepStrictEqual(
      analysis.requests.stageKeysAt(i),
      original.stages.map((s) => s.stageKey),
    );
    assert.equal(analysis.requests.lineAt(i), original.line);
    for (const stage of original.stages) {
      assert.equal(analysis.requests.hasStageId(i, stage.stageId ?? -1), stage.stageId !== null);
      for (const [field, cell] of Object.entries(stage.fields)) {
        assert.deepStrictEqual(
          analysis.requests.stageCellAt(i, stage.stageKey, field),
          cell,
          `${name}: request ${i} stage ${stage.stageKey} ${field}`,
        );
      }
      assert.equal(analysis.requests.stageCellAt(i, stage.stageKey, 'no_such_field'), undefined);
    }
    for (const [field, cell] of Object.entries(original.e2e))
      assert.deepStrictEqual(analysis.requests.e2eCellAt(i, field), cell, `${name}: request ${i} e2e ${field}`);
    assert.equal(analysis.requests.timestampAt(i), original.timestamp);
    assert.equal(analysis.requests.endToEndMsAt(i), endToEndOf(original)?.ms ?? null, `${name}: request ${i} e2e`);
  });
  return originals.length;
}

test('every real excerpt and crafted log round-trips through the store', () => {
  let requests = 0;
  for (const name of readdirSync(join(FIXTURES, 'real-logs'))) requests += assertRoundTrip(name, realLog(name));
  for (const name of readdirSync(join(FIXTURES, 'logs')))
    requests += assertRoundTrip(name, readFileSync(join(FIXTURES, 'logs', name), 'utf8'));
  // The upstream-rendered logs, the INFO-level one ([OmniTiming] only: its end to end is total=) included.
  let fromTiming = 0;
  for (const name of readdirSync(join(FIXTURES, 'upstream-rendered')).filter((n) => n.endsWith('.log'))) {
    const text = readFileSync(join(FIXTURES, 'upstream-rendered', name), 'utf8');
    requests += assertRoundTrip(name, text);
    for (const r of analyse(text).originals) if (endToEndOf(r)?.from === 'omniTiming') fromTiming += 1;
  }
  assert.equal(fromTiming, 6, 'the INFO-level log: 6 ends to end from [OmniTiming]');
  requests += assertRoundTrip(
    'sample',
    readFileSync(join(__dirname, '..', '..', 'samples', 'qwen3-tts-first-audio-cold-start.log'), 'utf8'),
  );
  assert.ok(requests > 20, `only ${requests} requests in the fixtures`);
});

test('a generated log with TTS, Omni and image requests round-trips, sharing a few layouts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-store-'));
  try {
    const path = join(dir, 'server.log');
    generateBenchLog(path, 1_500_000);
    const n = assertRoundTrip('generated', readFileSync(path, 'utf8'));
    assert.ok(n > 150, `${n} requests`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('numbers the int32 slots cannot hold exactly are kept exactly: -0, 4+ decimals, huge, tiny, negative', () => {
  const values = [-0, 0, 0.0001, 1 / 3, 1e15, -1e7, 2147483.647, 2147483.648, -1073741.823, 123.456, Number.MAX_VALUE];
  const store = new RequestStore();
  const fields = Object.fromEntries(values.map((v, i) => [`f${i}`, measured(v)]));
  const request: AnalyzedRequest = {
    requestId: 'r1',
    boot: 2,
    cold: true,
    line: 7,
    timestamp: '08-21 00:00:01',
    stages: [],
    e2e: { ...fields, none_here: NOT_MEASURED, kind: { state: 'text', value: 'audio' }, mean: measured(13.49, 51) },
    timing: null,
    transfers: [],
    complete: false,
    hasStageTable: false,
    stageTableCut: false,
    overallSummary: null,
    derived: { addedTimeToFirstOutputMs: {} },
  };
  store.add(request);
  const back = store.at(0) as AnalyzedRequest;
  assert.deepStrictEqual(back, request);
  assert.ok(Object.is((back.e2e['f0'] as { value: number }).value, -0), '-0 stays -0');
  assert.equal(store.isColdAt(0), true);
  assert.equal(store.requestIdAt(0), 'r1');
});

test('SampleSet gives the same percentiles whether its samples are all 3-decimal values or not', () => {
  const exact = new SampleSet();
  const mixed = new SampleSet();
  const reference: number[] = [];
  for (let i = 0; i < 10_000; i++) {
    const v = Math.round(((i * 7919) % 10007) * 1.731) / 1000;
    exact.add(v);
    mixed.add(i === 5000 ? v + 1e-7 : v);
    reference.push(i === 5000 ? v + 1e-7 : v);
  }
  reference.sort((a, b) => a - b);
  const p = (q: number): number => {
    const h = ((reference.length - 1) * q) / 100;
    const lo = Math.floor(h);
    return reference[lo] + (h - lo) * (reference[lo + 1] - reference[lo]);
  };
  const d = mixed.distribution();
  assert.ok(d !== null);
  assert.equal(d.p50, p(50));
  assert.equal(d.p90, p(90));
  assert.equal(d.p99, p(99));
  assert.equal(exact.distribution()?.count, 10_000);
  assert.equal(exact.distribution()?.max, Math.max(...reference.map((v) => Math.round(v * 1000) / 1000)));
});

test('SampleSet answers exactly at every point of a live stream: queries between adds, merges, 3-decimal and wider values', () => {
  let seed = 12345;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const set = new SampleSet();
  const reference: number[] = [];
  const linear = (sorted: number[], q: number): number => {
    const h = ((sorted.length - 1) * q) / 100;
    const lo = Math.floor(h);
    const a = sorted[lo];
    return lo + 1 >= sorted.length || h === lo ? a : a + (h - lo) * (sorted[lo + 1] - a);
  };
  for (let i = 1; i <= 12_000; i++) {
    const v = i === 9000 ? 1 / 7 : Math.round(random() * 5_000_000) / 1000;
    set.add(v);
    reference.push(v);
    if (i % 997 === 0 || i === 4096 || i === 4097 || i === 12_000) {
      const sorted = [...reference].sort((a, b) => a - b);
      const d = set.distribution();
      assert.ok(d !== null);
      assert.equal(d.count, i);
      for (const [q, got] of [
        [50, d.p50],
        [90, d.p90],
        [99, d.p99],
      ] as const)
        assert.equal(got, linear(sorted, q), `p${q} after ${i}`);
      assert.equal(d.max, sorted[sorted.length - 1]);
    }
  }
});

test('SampleSet with few distinct values (kept as runs) answers exactly, also when the values then spread out, or turn wide', () => {
  let seed = 777;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const linear = (sorted: number[], q: number): number => {
    const h = ((sorted.length - 1) * q) / 100;
    const lo = Math.floor(h);
    const a = sorted[lo];
    return lo + 1 >= sorted.length || h === lo ? a : a + (h - lo) * (sorted[lo + 1] - a);
  };
  // Phases: a constant (batch_size 1), a handful of values (sample rates, token counts), then
  // every value distinct, then a value that is not a 3-decimal one, then a handful again.
  const phases: Array<[number, () => number]> = [
    [9000, () => 1],
    [9000, () => [0, 24000, 44100, 16000][Math.floor(random() * 4)]],
    [9000, () => Math.round(random() * 5_000_000) / 1000],
    [1, () => 1 / 3],
    [9000, () => [2.5, 7][Math.floor(random() * 2)]],
  ];
  const set = new SampleSet();
  const reference: number[] = [];
  let i = 0;
  for (const [n, next] of phases) {
    for (let k = 0; k < n; k++) {
      const v = next();
      set.add(v);
      reference.push(v);
      i += 1;
      if (i % 2999 === 0 || i % 4096 === 0 || i % 4096 === 1 || k === n - 1) {
        const sorted = [...reference].sort((a, b) => a - b);
        const d = set.distribution();
        assert.ok(d !== null);
        assert.equal(d.count, i);
        for (const [q, got] of [
          [50, d.p50],
          [90, d.p90],
          [99, d.p99],
        ] as const)
          assert.equal(got, linear(sorted, q), `p${q} after ${i}`);
        assert.equal(d.max, sorted[sorted.length - 1]);
      }
    }
  }
});
