// Tail attribution over the whole session is answered from order statistics kept as
// requests arrive (tailState.ts); any other scope takes a pass over its requests. The two
// must agree exactly: seeded random sessions (ties, parts not measured or hidden, stages
// and hand-offs that first appear mid-session, restarts with their cold requests, requests
// without e2e) read through the real parser, every target and quantile, cold requests in
// and out, compared to the last bit at checkpoints while requests arrive, and for a state
// made at the end in one pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { ExplainIndex } from '../../server/core/explain/explainIndex';
import { scopedTailAttribution, tailAttribution } from '../../server/core/explain/tailAttribution';
import { parseTarget } from '../../server/core/explain/targets';
import { percentileOfRanks, WarmColdSamples } from '../../server/core/explain/orderStatistics';
import { percentileInPlace } from '../../server/core/explain/select';
import type { TailQuantile } from '../../server/core/explain/types';
import { loadAtArrival } from '../../server/core/explain/loadAtArrival';
import { explainReport } from '../../server/core/explain/explainReport';
import { breakdownSummary } from '../../server/core/explain/breakdownSummary';
import { costModel } from '../../server/core/explain/costModel';
import { bootsInScope } from '../../server/core/explain/scope';
import { overTime, OverTimeCache } from '../../server/core/explain/overTime';
import { loadAtArrivalByPass } from './support/loadAtArrivalPass';
import { BOOT_LINE, int, renderRequest, type RequestSpec } from './support/explainLogs';
import type { PyValue } from '../../server/simulate/render';

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const two = (n: number): string => String(n).padStart(2, '0');
const clockAt = (s: number): string =>
  `10-22 ${two(9 + Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;

/** A random session's log: returns its text in request-sized pieces (a restart line goes with the request after it). */
function randomSession(seed: number, count: number): string[] {
  const r = random(seed);
  // Few distinct values often, so that ties (and ties across the cold list) are common.
  const ms = (scale: number): number =>
    r() < 0.3 ? [5, 10, 50][Math.floor(r() * 3)]! : Math.round(r() * scale * 1000) / 1000;
  /** A field: a value, None (not measured), 0 or absent (hidden unless another column has it). */
  const field = (scale: number): PyValue | undefined => {
    const x = r();
    if (x < 0.06) return null;
    if (x < 0.1) return 0;
    if (x < 0.14) return undefined;
    return ms(scale);
  };
  const pieces: string[] = [];
  let second = 0;
  for (let i = 0; i < count; i++) {
    second += Math.floor(r() * 3);
    let piece = '';
    if (i === 0 || r() < 0.03) piece += BOOT_LINE(clockAt(second));
    // A third stage from the middle of the session on; hand-offs from a third of the way on.
    const stageCount = i >= count / 2 && r() < 0.7 ? 3 : 2;
    const stages: Record<string, Record<string, PyValue>> = {};
    let firstOutput = 0;
    for (let s = 0; s < stageCount; s++) {
      const f: Record<string, PyValue> = {
        num_tokens_in: int(Math.floor(r() * 500)),
        num_tokens_out: int(1 + Math.floor(r() * 300)),
        stage_gen_time_ms: 200 + ms(800),
      };
      const put = (name: string, v: PyValue | undefined): void => {
        if (v !== undefined) f[name] = v;
      };
      put('vllm_queued_ms', field(40));
      if (s > 0 && r() < 0.8) {
        put('vllm_input_wait_ms', field(200));
        put('vllm_ready_queued_ms', field(10));
      }
      put('vllm_prefill_ms', field(150));
      put('vllm_decode_ms', field(500));
      put('vllm_ttft_ms', field(200));
      put('postprocess_time_ms', field(8));
      firstOutput += 20 + ms(300);
      if (r() < 0.9) f['serving_time_to_first_output_ms'] = Math.round(firstOutput * 1000) / 1000;
      stages[String(s)] = f;
    }
    const spec: RequestSpec = {
      id: `req-${seed}-${i}`,
      // Now and then logged after requests that finished later (several streams interleave).
      time: clockAt(r() < 0.1 ? Math.max(0, second - 1 - Math.floor(r() * 5)) : second),
      ...(r() < 0.9 ? { e2eMs: Math.round((firstOutput + 100 + r() * 2000) * 1000) / 1000 } : {}),
      ...(r() < 0.8 ? { preprocessS: Math.round(r() * 50) / 1000 } : {}),
      stages,
      ...(i >= count / 3 && r() < 0.8
        ? {
            transfers: Object.fromEntries(
              Array.from({ length: stageCount - 1 }, (_, s) => [
                `${s}->${s + 1}`,
                { tx_time_ms: ms(5), in_flight_time_ms: ms(3), rx_decode_time_ms: ms(4), size_kbytes: 12 },
              ]),
            ),
          }
        : {}),
    };
    pieces.push(piece + renderRequest(spec));
  }
  return pieces;
}

const QUANTILES: readonly TailQuantile[] = ['p90', 'p95', 'p99'];

/** Every target, quantile and cold switch: the kept state's answer is the pass's, exactly. */
function assertSameAsPass(index: ExplainIndex, what: string): number {
  let compared = 0;
  for (const name of index.targets()) {
    const target = parseTarget(name)!;
    for (const quantile of QUANTILES) {
      for (const excludeCold of [false, true]) {
        const scope = excludeCold ? { excludeCold } : {};
        const kept = tailAttribution(index, { target: name, quantile, scope });
        const pass = scopedTailAttribution(index, target, { target: name, quantile, scope });
        assert.deepEqual(kept, pass, `${what}: ${name} ${quantile}${excludeCold ? ' without cold' : ''}`);
        if (pass !== null) compared++;
      }
    }
  }
  return compared;
}

/** Load at arrival equals the reference pass; the over-time series kept from earlier answers equals a fresh one. */
function assertLoadAndOverTime(index: ExplainIndex, steps: OverTimeCache, what: string): void {
  for (const name of index.targets()) {
    for (const scope of [{}, { excludeCold: true }]) {
      const query = { target: name, quantile: 'p95' as const, scope };
      assert.deepEqual(loadAtArrival(index, query), loadAtArrivalByPass(index, query), `${what}: load ${name}`);
    }
  }
  overTimeSameAsFresh(index, steps, what);
}

function overTimeSameAsFresh(index: ExplainIndex, steps: OverTimeCache, what: string): void {
  // On a given grid (a chosen one is kept while the rate stays within 2x, by design).
  for (const scope of [{}, { excludeCold: true }, { boot: 1 }]) {
    const query = { scope, stepMs: 10_000, windowMs: 30_000 };
    assert.deepEqual(overTime(index, query, [], steps), overTime(index, query), `${what}: over time`);
  }
}

/** Reads the pieces through the real parser and analysis; `atRequest` runs after the index adds each request. */
function feed(pieces: readonly string[], atRequest: (index: ExplainIndex) => void): ExplainIndex {
  const index = new ExplainIndex({ year: 2026, live: true });
  const analysis = new StreamAnalysis({
    year: 2026,
    onRequest: (req) => {
      index.add(req);
      atRequest(index);
    },
  });
  const parser = new LogStreamParser();
  for (const piece of pieces) analysis.ingest(parser.push(piece));
  analysis.ingest(parser.end());
  analysis.flush();
  return index;
}

for (const seed of [1, 2, 3, 4]) {
  test(`seeded random session ${seed}: tail attribution kept as requests arrive equals the pass over the session, exactly; so do load at arrival and the over-time series`, () => {
    const pieces = randomSession(seed, 260);
    const checkpoints = new Set([1, 2, 3, 7, 20, 60, 90, 131, 200]);
    let compared = 0;
    const steps = new OverTimeCache();
    const live = feed(pieces, (index) => {
      // Over time after every request for a while: a request logged after later ones lands inside the kept order.
      if (index.length >= 60 && index.length < 100) overTimeSameAsFresh(index, steps, `${seed} at ${index.length}`);
      if (!checkpoints.has(index.length)) return;
      compared += assertSameAsPass(index, `${seed} at ${index.length}`);
      assertLoadAndOverTime(index, steps, `${seed} at ${index.length}`);
    });
    assertLoadAndOverTime(live, steps, `${seed} at the end`);
    compared += assertSameAsPass(live, `${seed} at the end`);
    // A state made at the end in one pass gives the same as the one fed request by request.
    const late = feed(pieces, () => {});
    compared += assertSameAsPass(late, `${seed} made at the end`);
    // One made at the first request and not asked again: fed in a batch (BATCH requests) and the rest when asked.
    const early = feed(pieces, (index) => {
      if (index.length === 1) assertSameAsPass(index, `${seed} at the first request`);
    });
    compared += assertSameAsPass(early, `${seed} made at the first request`);
    for (const name of live.targets())
      for (const quantile of QUANTILES)
        assert.deepEqual(
          tailAttribution(late, { target: name, quantile, scope: {} }),
          tailAttribution(live, { target: name, quantile, scope: {} }),
        );
    assert.ok(compared > 100, `compared ${compared} answers`);
    // The sessions have what the comparison is about: cold requests, parts some requests did not measure.
    const e2e = tailAttribution(live, { target: 'e2e', quantile: 'p90', scope: {} })!;
    const warm = tailAttribution(live, { target: 'e2e', quantile: 'p90', scope: { excludeCold: true } })!;
    assert.ok(e2e.scopeCount > warm.scopeCount, 'some requests are cold');
    assert.ok(
      e2e.parts.some((p) => p.measuredIn < e2e.requestCount),
      'some tail requests did not measure a part',
    );
  });
}

test('a part not measured is left out of its median, never read as 0', () => {
  const pieces = randomSession(9, 120);
  const index = feed(pieces, () => {});
  const t = tailAttribution(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  // Input wait is printed for ~80% of downstream stage requests, and then sometimes as None or 0.
  const wait = t.parts.find((p) => p.key === '1/inputWait')!;
  const values: number[] = [];
  for (let i = 0; i < index.length; i++) {
    const v = index
      .parts()
      .find((p) => p.meta.key === '1/inputWait')!
      .ms.get(i);
    if (!Number.isNaN(v) && !Number.isNaN(index.target('e2e')!.get(i))) values.push(v);
  }
  assert.ok(values.length < index.length - 10, 'many requests did not measure it');
  const sorted = Float64Array.from(values);
  assert.equal(wait.medianMs, percentileInPlace(sorted, values.length, 50));
});

test('warm and cold samples: every percentile over all of them or the warm ones is the select over those values', () => {
  const r = random(42);
  for (let round = 0; round < 60; round++) {
    const samples = new WarmColdSamples();
    const all: number[] = [];
    const warm: number[] = [];
    const n = 1 + Math.floor(r() * (round < 30 ? 12 : 9000));
    for (let i = 0; i < n; i++) {
      const v = r() < 0.4 ? Math.floor(r() * 4) : Math.round(r() * 1e6) / 1000 - 100;
      const cold = r() < (round % 3 === 0 ? 0.5 : 0.01);
      samples.add(v, cold);
      all.push(v);
      if (!cold) warm.push(v);
    }
    for (const [values, excludeCold] of [
      [all, false],
      [warm, true],
    ] as const) {
      assert.equal(samples.count(excludeCold), values.length);
      for (const p of [0, 1, 37.5, 50, 90, 95, 99, 100]) {
        const expected = percentileInPlace(Float64Array.from(values), values.length, p);
        assert.equal(samples.percentile(p, excludeCold), values.length === 0 ? Number.NaN : expected, `${round} p${p}`);
      }
    }
  }
  assert.ok(Number.isNaN(percentileOfRanks(0, 50, () => 0)));
});

test("a report's questions sharing their column reads, populations and load counts answer as each asked alone (tails, load, part distributions, cost model)", () => {
  const pieces = randomSession(5, 200);
  // The report reads one index; the questions asked alone read a twin, so no cache is shared.
  const reported = feed(pieces, () => {});
  const alone = feed(pieces, () => {});
  let compared = 0;
  for (const byBoot of [false, true]) {
    for (const excludeCold of [false, true]) {
      const scope = { excludeCold };
      const report = explainReport(reported, 'x', { scope, byBoot, quantiles: QUANTILES }, [], []);
      const boots = byBoot ? bootsInScope(alone, scope) : [undefined];
      const tails = [];
      const ones: { target: string; boot?: number; requestId: string; valueMs: number }[] = [];
      const loads = [];
      for (const target of alone.targets()) {
        for (const quantile of QUANTILES) {
          for (const boot of boots) {
            const t = tailAttribution(alone, {
              target,
              quantile,
              scope: boot === undefined ? scope : { ...scope, boot },
            });
            // A boot with one request of the target has no tail: the report names it under oneRequest.
            if (t !== null && t.scopeCount > 1) tails.push(t);
            else if (t !== null && !ones.some((o) => o.target === target && o.boot === boot))
              ones.push({
                target,
                ...(boot === undefined ? {} : { boot }),
                requestId: t.requestIds[0] ?? '',
                valueMs: t.targetMedianMs,
              });
          }
          // Per boot with byBoot, as the tails: a boot's tail arrived among its own requests.
          for (const boot of boots) {
            const l = loadAtArrivalByPass(alone, {
              target,
              quantile,
              scope: boot === undefined ? scope : { ...scope, boot },
            });
            if (l !== null && l.arrivalsKnown > 0) loads.push(boot === undefined ? l : { ...l, boot });
          }
        }
      }
      assert.ok(tails.length > (byBoot ? 20 : 10), `${tails.length} tails`);
      assert.deepEqual(report.tail, tails, `tails byBoot=${byBoot} excludeCold=${excludeCold}`);
      assert.deepEqual(report.oneRequest, ones, `one-request targets byBoot=${byBoot} excludeCold=${excludeCold}`);
      assert.deepEqual(report.load, loads, `loads byBoot=${byBoot} excludeCold=${excludeCold}`);
      assert.deepEqual(report.breakdown, breakdownSummary(alone, scope), `breakdown excludeCold=${excludeCold}`);
      const cost = costModel(alone, scope);
      assert.deepEqual([report.costModel, report.costModelSkipped], [cost.fits, cost.skipped], `cost model`);
      assert.ok(cost.fits.length + cost.skipped.length > 0, 'the cost model had points');
      compared += tails.length;
    }
  }
  assert.ok(compared > 60, `${compared} tails compared`);
});
