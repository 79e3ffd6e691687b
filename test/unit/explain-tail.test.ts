// Tail attribution on requests with a planted cause; one request; all requests equal; a
// part missing in some tail requests; exclude cold and per boot; a gen time not split under
// its own stage's first output (upstream Qwen3-TTS log). Expectations by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ExplainIndex } from '../../server/core/explain/explainIndex';
import { tailAttribution } from '../../server/core/explain/tailAttribution';
import type { TailAttribution } from '../../server/core/explain/types';
import { analyse, analyseSpecs, asyncChunk, BOOT_LINE, renderRequest } from './support/explainLogs';

const close = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-6,
    `${what}: ${actual} != ${expected}`,
  );
};

const excessOf = (t: TailAttribution, key: string): number | undefined => t.parts.find((p) => p.key === key)?.excessMs;

function identity(t: TailAttribution): void {
  const sum = t.parts.reduce((a, p) => a + p.excessMs, 0);
  close(sum + t.residualMs, t.excessMs, 'excess = Σ parts + residual');
}

/** 18 requests as asyncChunk, 2 with the talker's prefill 1,000 ms longer (their codec waits for it). */
function planted() {
  const specs = Array.from({ length: 20 }, (_, i) =>
    asyncChunk(`speech-${String(i).padStart(2, '0')}`, i === 7 || i === 13 ? 1000 : 0),
  );
  return analyseSpecs(specs);
}

test("a planted cause: the tail is the two slow requests, and the talker prefill explains them (within each request, against each part's median)", () => {
  const { index } = planted();
  for (const quantile of ['p90', 'p95'] as const) {
    const t = tailAttribution(index, { target: 'e2e', quantile, scope: {} })!;
    assert.equal(t.requestCount, 2, quantile);
    assert.deepEqual([...t.requestIds].sort(), ['speech-07', 'speech-13']);
    assert.equal(t.scopeCount, 20);
    close(t.targetMedianMs, 800, 'median e2e');
    close(t.excessMs, 1000, 'the tail is 1,000 ms above the median');
    // p90 of [800 × 18, 1800 × 2]: rank 17.1 -> 800 + 0.1 × 1000.
    close(t.thresholdMs, quantile === 'p90' ? 900 : 1800, 'threshold');
    close(excessOf(t, '0/prefill'), 1000, 'talker prefill');
    close(excessOf(t, '1/inputWait'), 1000, 'codec input wait: the wait for that prefill');
    assert.equal(t.parts[0]?.share !== null && t.parts[0]!.share > 0.99, true);
    for (const p of t.parts) if (p.key !== '0/prefill' && p.key !== '1/inputWait') close(p.excessMs, 0, p.key);
    close(t.residualMs, -1000, 'negative: the two parts overlap');
    identity(t);
  }
});

test('time to first audio (stage 1 first output): parts are taken for the time they lie before it', () => {
  const { index } = planted();
  const t = tailAttribution(index, { target: 'stage1.firstOutput', quantile: 'p95', scope: {} })!;
  close(t.targetMedianMs, 183, 'median time to first audio');
  close(t.excessMs, 1000, 'excess');
  close(excessOf(t, '0/prefill'), 1000, 'talker prefill');
  close(excessOf(t, '1/inputWait'), 1000, 'codec input wait');
  // The talker's decode up to the codec's input-ready instant (12 + 150 + x), not to its first
  // output at 183 + x: [112, 162] in both kinds of request. After it, the codec's wait for a
  // slot and its prefill are its own; the talker decodes on alongside, not waited for.
  const decode = t.parts.find((p) => p.key === '0/decode')!;
  close(decode.medianMs, 50, 'talker decode before the codec had its input');
  close(decode.excessMs, 0, 'talker decode excess');
  // What lies wholly after the first output is not a part of it.
  for (const key of ['1/decode', '1/genOther', '0/genOther', 'finalOutput'])
    assert.equal(excessOf(t, key), undefined, key);
  identity(t);
});

test('a part after the first output in most requests: its median 0 says so (afterTarget), a part measured 0 ms does not', () => {
  const specs = Array.from({ length: 20 }, (_, i) => {
    const spec = asyncChunk(`r${i}`, i === 7 || i === 13 ? 1000 : 0);
    const stages = spec.stages as Record<string, Record<string, unknown>>;
    // In 4 requests the codec's first audio comes 300 ms later: its decode then starts before it.
    if (i % 6 === 1)
      stages['1']!['serving_time_to_first_output_ms'] =
        (stages['1']!['serving_time_to_first_output_ms'] as number) + 300;
    // The talker's queue is measured 0 ms in 15 requests, 2 ms in the others.
    if (i % 4 !== 0) stages['0']!['vllm_queued_ms'] = 0;
    return spec;
  });
  const { index } = analyseSpecs(specs);
  for (const scope of [{}, { fromMs: 0, toMs: Number.MAX_SAFE_INTEGER }]) {
    const t = tailAttribution(index, { target: 'stage1.firstOutput', quantile: 'p95', scope })!;
    const decode = t.parts.find((p) => p.key === '1/decode')!;
    close(decode.medianMs, 0, 'codec decode before the first audio, median');
    assert.deepEqual(decode.afterTarget, { requests: 16, of: 20 });
    const queued = t.parts.find((p) => p.key === '0/queued')!;
    close(queued.medianMs, 0, 'talker queued: a measured 0 ms');
    assert.equal(queued.afterTarget, undefined);
    // A part with a time for a median, and e2e (nothing clipped), never carry it.
    assert.equal(t.parts.find((p) => p.key === '0/prefill')!.afterTarget, undefined);
    const e2e = tailAttribution(index, { target: 'e2e', quantile: 'p95', scope })!;
    assert.ok(e2e.parts.every((p) => p.afterTarget === undefined));
  }
});

test("stage TTFT is stage-local: only that stage's queued (input wait, ready queued) and prefill", () => {
  const { index } = planted();
  const t = tailAttribution(index, { target: 'stage1.ttft', quantile: 'p95', scope: {} })!;
  assert.deepEqual(t.parts.map((p) => p.key).sort(), ['1/inputWait', '1/prefill', '1/readyQueued']);
  close(t.excessMs, 1000, 'excess');
  close(excessOf(t, '1/inputWait'), 1000, 'input wait');
  close(t.residualMs, 0, 'residual');
});

test('one request: it is its own tail and median; nothing is in excess', () => {
  const { index } = analyseSpecs([asyncChunk('only')]);
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p99', scope: {} })!;
  assert.equal(t.requestCount, 1);
  close(t.thresholdMs, 800, 'threshold');
  close(t.excessMs, 0, 'excess');
  for (const p of t.parts) {
    close(p.excessMs, 0, p.key);
    assert.equal(p.share, null, 'no share of a zero excess');
  }
  close(t.residualMs, 0, 'residual');
});

test('all requests equal: the whole population is the tail, every excess 0, shares null', () => {
  const { index } = analyseSpecs(Array.from({ length: 10 }, (_, i) => asyncChunk(`same-${i}`)));
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p95', scope: {} })!;
  assert.equal(t.requestCount, 10);
  close(t.excessMs, 0, 'excess');
  assert.ok(t.parts.every((p) => p.excessMs === 0 && p.share === null));
  close(t.residualMs, 0, 'residual');
});

test('a part some tail requests did not measure: measuredIn says how many, its time is in their residual', () => {
  const specs = Array.from({ length: 10 }, (_, i) => asyncChunk(`r${i}`, i >= 8 ? 500 : 0));
  // r9's codec input split is not printed (a build without it): its codec has vllm_queued_ms only.
  const stage1 = { ...specs[9]!.stages['1'] };
  delete stage1['vllm_input_wait_ms'];
  delete stage1['vllm_ready_queued_ms'];
  specs[9] = { ...specs[9]!, stages: { ...specs[9]!.stages, '1': stage1 } };
  const { index } = analyseSpecs(specs);
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.deepEqual([...t.requestIds].sort(), ['r8', 'r9']);
  const wait = t.parts.find((p) => p.key === '1/inputWait')!;
  assert.equal(wait.measuredIn, 1);
  close(wait.excessMs, 500 / 2, 'r8 alone: (650 − 150) / 2 tail requests');
  const queued = t.parts.find((p) => p.key === '1/queued')!;
  assert.equal(queued.measuredIn, 1);
  close(queued.medianMs, 651, 'the only request with a queued part is the median of it');
  close(queued.excessMs, 0, 'queued excess');
  identity(t);
});

test('exclude cold and per boot: the cold request leaves the scope; each boot has its own tail', () => {
  const boot1 = [
    asyncChunk('b1-cold', 5000, '10-22 09:00:01'),
    ...Array.from({ length: 9 }, (_, i) => asyncChunk(`b1-${i}`, i === 4 ? 300 : 0, '10-22 09:00:05')),
  ];
  const boot2 = [
    asyncChunk('b2-cold', 6000, '10-22 10:00:01'),
    ...Array.from({ length: 9 }, (_, i) => asyncChunk(`b2-${i}`, i === 2 ? 700 : 0, '10-22 10:00:05')),
  ];
  const text =
    BOOT_LINE('10-22 09:00:00') +
    boot1.map(renderRequest).join('') +
    BOOT_LINE('10-22 10:00:00') +
    boot2.map(renderRequest).join('');
  const { index, requests } = analyse(text);
  assert.deepEqual(
    requests.filter((r) => r.cold).map((r) => r.requestId),
    ['b1-cold', 'b2-cold'],
  );
  const all = tailAttribution(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.deepEqual([...all.requestIds].sort(), ['b1-cold', 'b2-cold']);
  const warm = tailAttribution(index, { target: 'e2e', quantile: 'p90', scope: { excludeCold: true } })!;
  assert.equal(warm.scopeCount, 18);
  assert.deepEqual([...warm.requestIds].sort(), ['b1-4', 'b2-2']);
  close(warm.excessMs, 500, '(300 + 700) / 2');
  const second = tailAttribution(index, { target: 'e2e', quantile: 'p90', scope: { excludeCold: true, boot: 2 } })!;
  assert.equal(second.boot, 2);
  assert.deepEqual(second.requestIds, ['b2-2']);
  close(excessOf(second, '0/prefill'), 700, 'boot 2 tail: talker prefill');
  // A time window: boot 1's requests only (10-22 09:00:00 .. 09:59:59 on the log clock).
  const from = Date.UTC(2026, 9, 22, 9, 0, 0);
  const windowed = tailAttribution(index, {
    target: 'e2e',
    quantile: 'p90',
    scope: { fromMs: from, toMs: from + 3600_000 - 1 },
  })!;
  assert.equal(windowed.scopeCount, 10);
  assert.deepEqual(windowed.requestIds, ['b1-cold']);
});

test('a target no request measured has no attribution', () => {
  const { index } = analyseSpecs([asyncChunk('x')]);
  assert.equal(tailAttribution(index, { target: 'stage4.ttft', quantile: 'p95', scope: {} }), null);
  assert.equal(tailAttribution(index, { target: 'nonsense', quantile: 'p95', scope: {} }), null);
});

/** A fixture log's explain index, and the same requests indexed as a live session indexes them as they arrive. */
function batchAndLive(...file: string[]): { index: ExplainIndex; live: ExplainIndex } {
  const { index, requests } = analyse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', ...file), 'utf8'));
  const live = new ExplainIndex({ year: 2026, live: true });
  for (const r of requests) live.add(r);
  return { index, live };
}

/** The codec's first-output tail at `quantile`, which the live index must give alike. */
function codecFirstOutputTail(index: ExplainIndex, live: ExplainIndex, quantile: 'p95' | 'p99'): TailAttribution {
  const t = tailAttribution(index, { target: 'stage1.firstOutput', quantile, scope: {} })!;
  assert.deepEqual(tailAttribution(live, { target: 'stage1.firstOutput', quantile, scope: {} }), t, quantile);
  return t;
}

test("under its own stage's first output, a gen time the log does not split is not measured: named with why, never +0 ms or after the target", () => {
  // Simulated (talker first audio, before the fix, seed 3): the codec's first audio comes after it was scheduled.
  const { index, live } = batchAndLive('sim', 'talker-first-audio-before-fix-seed3.log');
  for (const quantile of ['p95', 'p99'] as const) {
    const t = codecFirstOutputTail(index, live, quantile);
    // The codec printed vllm_prefill_ms None and no decode: where its first audio lies in its gen time is not in the log.
    assert.equal(
      t.parts.find((p) => p.key === '1/genOther'),
      undefined,
    );
    assert.deepEqual(t.notMeasured, [
      {
        key: '1/genOther',
        stageId: 1,
        stageKey: '1',
        phase: 'genOther',
        withUnmeasuredPhases: true,
        reason:
          "stage 1's first output lies inside its gen time, which the log does not split, so how much of that time comes before the first output is not known",
      },
    ]);
    close(excessOf(t, '1/inputWait'), 20.4825, 'codec input wait, as before');
    identity(t);
  }
  // Under end-to-end the whole gen time counts: it is measured, and a part.
  const e2e = tailAttribution(index, { target: 'e2e', quantile: 'p99', scope: {} })!;
  assert.equal(e2e.notMeasured, undefined);
  assert.equal(e2e.parts.find((p) => p.key === '1/genOther')?.withUnmeasuredPhases, true);
  // Another stage's first output does not lie in stage 1's gen time.
  assert.equal(
    tailAttribution(index, { target: 'stage0.firstOutput', quantile: 'p99', scope: {} })?.notMeasured,
    undefined,
  );
});

test("a codec scheduled only after its first audio: its unsplit gen time counts nothing toward it, a known 0, not 'not measured'", () => {
  const { index, live } = batchAndLive('upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log');
  for (const quantile of ['p95', 'p99'] as const) {
    const t = codecFirstOutputTail(index, live, quantile);
    // speech-fbd4440a23242784cd92f847226a76f8: the codec's vllm_queued_ms 131.665 outlasts its first audio at 126.470 ms.
    assert.deepEqual(t.requestIds, ['speech-fbd4440a23242784cd92f847226a76f8']);
    assert.equal(t.notMeasured, undefined);
    assert.equal(
      t.parts.find((p) => p.key === '1/genOther'),
      undefined,
    );
    close(excessOf(t, '1/queued'), 31.309, 'codec queued (clipped at the first audio)');
    identity(t);
  }
});
