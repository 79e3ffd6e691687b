// A sample set whose input ended holds its samples' bytes and no room for more: its tail merged
// into the body, the runs' and the last chunk's spare room let go (SampleSet.trim, called by
// StreamAnalysis.flush for every summary's sets). It answers the same, and takes samples after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { SampleSet } from '../../server/core/analysis/sampleSet';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { LogStreamParser } from '../../server/core/log';
import { generateBenchLog } from '../../scripts/bench/generateLog';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Whether v is k / 1000 for an int32 k: such samples are kept as 4-byte thousandths. */
function isThousandths(v: number): boolean {
  const k = Math.round(v * 1000);
  return Math.abs(k) <= 0x7fffffff && k / 1000 === v && !Object.is(v, -0);
}

/**
 * The bytes the samples take once merged, plus the empty tail's 8 doubles: 4 a sample while all
 * are thousandths, else 8; or, where it is at most half that, 4 or 8 a distinct value and 4 for
 * where its run ends.
 */
function fittedBytes(samples: readonly number[]): number {
  const width = samples.every(isThousandths) ? 4 : 8;
  const distinct = new Set(samples.map((v) => (Object.is(v, -0) ? 0 : v))).size;
  const body = distinct * (width + 4) * 2 <= samples.length * width ? distinct * (width + 4) : samples.length * width;
  return body + 64;
}

/** `count` samples in a fixed pseudo-random order (Park-Miller), up to `distinct` values, divided by `per`. */
function samplesOf(count: number, distinct: number, per: number, seed = 4242): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 48271) % 2147483647;
    out.push((x % distinct) / per);
  }
  return out;
}

function assertSameAnswers(set: SampleSet, samples: readonly number[], label: string): void {
  const sorted = [...samples].sort((a, b) => a - b);
  assert.equal(set.count, samples.length, `${label}: count`);
  for (let k = 0; k < sorted.length; k += 13) assert.equal(set.at(k), sorted[k], `${label}: rank ${k}`);
  assert.equal(set.at(sorted.length - 1), sorted[sorted.length - 1], `${label}: the largest`);
}

test('SampleSet.trim: a set holds the bytes of its samples and no room (tail merged, runs and last chunk cut to fit)', () => {
  // 9,201 samples added one by one: 8,176 merged (at 16, 32, …, 2,048, then 4,096 more), 1,025 in a
  // tail of room for 2,048 doubles (16 KB, half of it spare) until trimmed.
  const cases: [string, number[], boolean][] = [
    ['thousandths, all distinct', samplesOf(9_201, 1_000_000_000, 1000), false],
    ['doubles (sevenths)', samplesOf(9_201, 1_000_000, 7), false],
    ['60 values (runs)', samplesOf(9_201, 60, 1000), false],
    ['10,000 thousandths added at once (three chunks of 4,096)', samplesOf(10_000, 1_000_000_000, 1000), true],
    ['runs that became every sample', [...samplesOf(6_000, 50, 1000), ...samplesOf(3_201, 1_000_000, 1000, 77)], false],
  ];
  for (const [label, samples, atOnce] of cases) {
    for (const keepsTail of [false, true]) {
      const set = new SampleSet(keepsTail);
      const twin = new SampleSet(keepsTail);
      if (atOnce) {
        set.addAll(samples);
        twin.addAll(samples);
      } else {
        for (const v of samples) set.add(v);
        for (const v of samples) twin.add(v);
      }
      set.trim();
      const name = `${label}${keepsTail ? ', keeping its tail' : ''}`;
      assert.equal(set.bytes, fittedBytes(samples), `${name}: bytes held (untrimmed: ${twin.bytes})`);
      assert.ok(set.bytes < twin.bytes, `${name}: ${set.bytes} bytes trimmed, ${twin.bytes} untrimmed`);
      assertSameAnswers(set, samples, name);
      assert.deepEqual(set.distribution(), twin.distribution(), `${name}: distribution`);
    }
  }
});

test('SampleSet.trim: a trimmed set takes more samples (its last chunk and runs grown again, then wider values) and answers exactly', () => {
  const set = new SampleSet();
  const twin = new SampleSet();
  const all: number[] = [];
  const add = (values: readonly number[], label: string): void => {
    for (const v of values) {
      set.add(v);
      twin.add(v);
      all.push(v);
    }
    set.trim();
    assert.equal(set.bytes, fittedBytes(all), `${label}: bytes held`);
    assertSameAnswers(set, all, label);
    assert.deepEqual(set.distribution(), twin.distribution(), `${label}: distribution`);
  };
  add(samplesOf(5_000, 40, 1000), 'runs');
  add(samplesOf(3_000, 40, 1000, 99), 'more runs');
  add(samplesOf(7_777, 1_000_000_000, 1000, 5), 'every sample, in chunks');
  add(samplesOf(4_100, 1_000_000_000, 1000, 6), 'a cut last chunk grown, and one more');
  add(samplesOf(10, 1_000_000_000, 1000, 8), 'ten more');
  add(samplesOf(3_000, 1_000_000, 7, 9), 'doubles');
  add([], 'nothing new');
});

test('StreamAnalysis.flush leaves every sample set its summaries keep holding its samples bytes and no room', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-room-'));
  const path = join(dir, 'server.log');
  // Every set the analysis adds to, with its samples (the sets are private to the summaries); a
  // set it let go (the [Overall Summary] fields', once a stage table comes) is collected and not counted.
  const sets: WeakRef<SampleSet>[] = [];
  const added = new WeakMap<SampleSet, number[]>();
  const add = Object.getOwnPropertyDescriptor(SampleSet.prototype, 'add')?.value as SampleSet['add'];
  try {
    const generated = generateBenchLog(path, 4_000_000);
    SampleSet.prototype.add = function (this: SampleSet, value: number): void {
      let samples = added.get(this);
      if (samples === undefined) {
        added.set(this, (samples = []));
        sets.push(new WeakRef(this));
      }
      samples.push(value);
      add.call(this, value);
    };
    const parser = new LogStreamParser();
    const analysis = new StreamAnalysis();
    const bytes = readFileSync(path);
    for (let at = 0; at < bytes.length; at += 1 << 20) analysis.ingest(parser.push(bytes.subarray(at, at + (1 << 20))));
    analysis.ingest(parser.end());
    analysis.flush();
    SampleSet.prototype.add = add;
    assert.equal(analysis.requestCount, generated.requests);
    await turn();
    gc();
    await turn();
    let held = 0;
    let fitted = 0;
    let kept = 0;
    for (const ref of sets) {
      const set = ref.deref();
      if (set === undefined) continue;
      const samples = added.get(set) ?? [];
      kept += 1;
      held += set.bytes;
      fitted += fittedBytes(samples);
      assert.equal(set.bytes, fittedBytes(samples), `a set of ${samples.length} samples`);
    }
    assert.ok(kept >= 50, `${kept} sample sets kept of ${sets.length}`);
    assert.equal(held, fitted);
    assert.ok((analysis.snapshot().stages[0]?.requestCount ?? 0) > 0);
  } finally {
    SampleSet.prototype.add = add;
    rmSync(dir, { recursive: true, force: true });
  }
});
