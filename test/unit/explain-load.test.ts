// Load at arrival and percentiles over time, from log timestamps; expectations by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAtArrival, readingOf } from '../../server/core/explain/loadAtArrival';
import { chooseGrid, overTime, OverTimeCache } from '../../server/core/explain/overTime';
import { InFlightCounts } from '../../server/core/explain/inFlight';
import { mulberry32 } from '../../server/simulate/seededRandom';
import { gaugesOfEngines } from '../../server/core/explain/explainReport';
import { logPrefix, renderLogRecord } from '../../server/simulate/render';
import { analyse, asyncChunk, renderRequest } from './support/explainLogs';
import { spansOf } from '../../server/capture/sessionQueries';

const hms = (s: number): string => {
  const m = Math.floor(s / 60);
  return `10-22 09:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

const close = (actual: number | null | undefined, expected: number, what: string): void => {
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-6,
    `${what}: ${actual} != ${expected}`,
  );
};

test('load at arrival: a tail that arrived into a busier server is read as queueing behind others', () => {
  // Ten 800 ms requests, one every 2 s (nothing else in flight when each arrives), then four
  // 5,000 ms requests finishing at 40, 41, 42, 43 s: arrivals 35.5, 36.5, 37.5, 38.5 s, so
  // 0, 1, 2 and 3 others in flight (each also inside both of the others' stages).
  const specs = [
    ...Array.from({ length: 10 }, (_, i) => asyncChunk(`n${i}`, 0, hms(10 + 2 * i))),
    ...Array.from({ length: 4 }, (_, i) => asyncChunk(`slow${i}`, 4200, hms(40 + i))),
  ];
  const { index } = analyse(specs.map(renderRequest).join(''));
  const load = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.equal(load.arrivalsKnown, 14);
  assert.equal(load.arrivalsUnknown, 0);
  close(load.thresholdMs, 5000, 'p90 of [800 × 10, 5000 × 4]');
  close(load.inFlight.all?.mean, 6 / 14, 'mean in flight, all');
  close(load.inFlight.tail?.mean, 1.5, 'mean in flight, tail');
  assert.equal(load.reading, 'busier');
  assert.match(load.readingText, /busier server: 1\.5 other requests in flight on average, against 0\.4/);
  assert.deepEqual(
    load.buckets.map((b) => [b.minInFlight, b.maxInFlight, b.count, b.tailCount, b.target?.p50]),
    [
      [0, 0, 11, 1, 800],
      [1, 1, 1, 1, 5000],
      [2, 3, 2, 2, 5000],
    ],
  );
  assert.deepEqual(
    load.stages.map((s) => [s.stageKey, s.all?.mean, s.tail?.mean]),
    [
      ['0', 6 / 14, 1.5],
      ['1', 6 / 14, 1.5],
    ],
  );
});

test('load at arrival: a client that sends one request at a time reads 0 in flight, not 1 where whole-second timestamps blur two neighbours', () => {
  // Each request sent as the last one finished, 1,700 ms each (2,900 ms for the 5th and 9th),
  // from 10.0 s. The log prints each finish in whole seconds: its midpoint can lie up to 0.5 s
  // after the true finish and the next arrival up to 0.5 s before its own, so neighbours seem to
  // overlap by up to 1 s (the 4th arrives at 14.8 s, the 3rd "finishes" at 15.5 s).
  const extra = (i: number): number => (i === 4 || i === 8 ? 2100 : 900);
  let at = 10_000;
  const specs = Array.from({ length: 10 }, (_, i) => {
    at += 800 + extra(i);
    return asyncChunk(`r${i}`, extra(i), hms(Math.floor(at / 1000)));
  });
  const { index } = analyse(specs.map(renderRequest).join(''));
  const load = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.equal(load.arrivalsKnown, 10);
  assert.equal(load.resolutionMs, 1000);
  assert.deepEqual(
    load.buckets.map((b) => [b.minInFlight, b.count, b.tailCount]),
    [[0, 10, 2]],
  );
  assert.equal(load.reading, 'sameLoad');
  assert.equal(
    load.readingText,
    'No other request was in flight when any request arrived: the tail was slower on its own, not queued behind others.',
  );
  assert.deepEqual(
    load.stages.map((s) => [s.stageKey, s.all?.mean, s.tail?.mean]),
    [
      ['0', 0, 0],
      ['1', 0, 0],
    ],
  );
});

test('load at arrival: a tail at the same load as the rest is read as slower at the same load', () => {
  const specs = Array.from({ length: 10 }, (_, i) =>
    asyncChunk(`r${i}`, i === 3 || i === 8 ? 900 : 0, hms(10 + 3 * i)),
  );
  const { index } = analyse(specs.map(renderRequest).join(''));
  const load = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.equal(load.reading, 'sameLoad');
  assert.match(load.readingText, /not queued behind others/);
  assert.deepEqual(
    load.buckets.map((b) => [b.minInFlight, b.count, b.tailCount]),
    [[0, 10, 2]],
  );
});

test('load at arrival: a tail that arrived at a much lower load is read as a lower load, not the same one', () => {
  const dist = (mean: number) => ({ count: 20, mean, p50: mean, p90: mean, p99: mean, max: mean });
  // The simulated GLM-Image run: the tail 1.5 in flight against 19.5 for everyone.
  const lower = readingOf(dist(19.5), dist(1.5), 40, 4, 'p90');
  assert.equal(lower.reading, 'lower');
  assert.equal(
    lower.text,
    'The tail arrived at a lower load than the rest (1.5 against 19.5 requests in flight on average): load does not explain it; requests were slower with fewer others in flight, so the time is in their own parts.',
  );
  // The band of "the same" is 1/1.15 to 1.15 of everyone's mean: 8.7 of 10 is inside, 8.6 below.
  assert.equal(readingOf(dist(10), dist(8.7), 40, 4, 'p90').reading, 'sameLoad');
  assert.equal(readingOf(dist(10), dist(8.6), 40, 4, 'p90').reading, 'lower');
  assert.equal(readingOf(dist(10), dist(11.5), 40, 4, 'p90').reading, 'sameLoad');
  // Nobody else in flight when the tail arrived, while others had company: lower.
  assert.equal(readingOf(dist(3), dist(0), 40, 4, 'p90').reading, 'lower');
});

test('load at arrival without timestamps: arrivals unknown, nothing invented', () => {
  const text = specsWithoutPrefix();
  const { index } = analyse(text);
  const load = loadAtArrival(index, { target: 'e2e', quantile: 'p95', scope: {} })!;
  assert.equal(load.arrivalsKnown, 0);
  assert.equal(load.arrivalsUnknown, 2);
  assert.equal(load.reading, 'unknown');
  assert.equal(
    load.readingText,
    'No request in scope has a known arrival (no log timestamp or no end-to-end time): there is no load at arrival to tell.',
  );
  assert.deepEqual(load.buckets, []);
});

test('load at arrival with one request in the tail: says how many there are and that the buckets describe, not prove', () => {
  // Five requests, 3 s apart (none in flight at another's arrival); one is 900 ms slower, the only one in the p90 tail.
  const specs = Array.from({ length: 5 }, (_, i) => asyncChunk(`r${i}`, i === 2 ? 900 : 0, hms(10 + 3 * i)));
  const { index } = analyse(specs.map(renderRequest).join(''));
  const load = loadAtArrival(index, { target: 'e2e', quantile: 'p90', scope: {} })!;
  assert.equal(load.arrivalsKnown, 5);
  assert.equal(load.reading, 'unknown');
  assert.equal(
    load.readingText,
    'Only 5 requests with a known arrival, 1 in the p90 tail: too few to tell whether the tail arrived into a busier server. The table below describes these requests as they are; it is not evidence either way.',
  );
  // The buckets the text points to are there, with real counts.
  assert.deepEqual(
    load.buckets.map((b) => [b.minInFlight, b.count, b.tailCount]),
    [[0, 5, 1]],
  );
});

function specsWithoutPrefix(): string {
  // The same records with their log prefix cut off (a transcription): no timestamps.
  return [asyncChunk('a'), asyncChunk('b')]
    .map(renderRequest)
    .join('')
    .replace(/^\(APIServer pid=4242\) (DEBUG|INFO) 10-22 09:30:53 \[[^\]]+\] /gm, '');
}

const engineLine = (time: string, engine: string, running: number, waiting: number, kv: string): string =>
  renderLogRecord(
    logPrefix({
      process: 'APIServer pid=4242',
      level: 'INFO',
      timestamp: time,
      file: 'v1/metrics/loggers.py',
      fileLine: 127,
      ansi: false,
    }),
    [
      `Engine ${engine}: Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: 5.0 tokens/s, Running: ${running} reqs, Waiting: ${waiting} reqs, GPU KV cache usage: ${kv}%, Prefix cache hit rate: 0.0%`,
    ],
  );

test('percentiles over time: a rolling window chosen from the rate, the step change visible, gauges on the same steps', () => {
  // One request a second for two minutes: 800 ms for the first minute, 1,300 ms for the second.
  let text = '';
  for (let s = 0; s < 120; s++) {
    if (s === 10) text += engineLine(hms(10), '000', 3, 1, '12.5') + engineLine(hms(10), '001', 2, 0, '0.0');
    if (s === 70) text += engineLine(hms(70), '000', 5, 4, '40.0') + engineLine(hms(70), '001', 2, 0, '0.0');
    text += renderRequest(asyncChunk(`r${s}`, s < 60 ? 0 : 500, hms(s)));
  }
  const { index, analysis } = analyse(text);
  assert.deepEqual(chooseGrid(120, 119_000), { windowMs: 60_000, stepMs: 15_000 });
  const series = overTime(
    index,
    { scope: {}, metrics: ['e2e', 'stage1.firstOutput'] },
    gaugesOfEngines(analysis.engineSeries()),
  );
  const t0 = Date.UTC(2026, 9, 22, 9, 0, 0);
  assert.equal(series.stepMs, 15_000);
  assert.equal(series.windowMs, 60_000);
  // Steps on round 15 s, the last ending at the last finish (09:01:59 + 0.5 s), not at 09:02:00.
  assert.deepEqual(series.times, [...Array.from({ length: 7 }, (_, k) => t0 + 15_000 * (k + 1)), t0 + 119_500]);
  assert.deepEqual(series.span, { fromMs: t0 + 500, toMs: t0 + 119_500 });
  // The first and last steps are each 15 printed seconds of the log: 1/s throughout.
  assert.deepEqual(series.requestRate, Array(8).fill(1));
  const e2e = series.series[0]!;
  const at = (t: number): number => series.times.indexOf(t0 + Math.min(t * 1000, 119_500));
  assert.deepEqual([e2e.count[at(60)], e2e.p50[at(60)], e2e.p99[at(60)]], [60, 800, 800]);
  assert.deepEqual([e2e.count[at(90)], e2e.p50[at(90)]], [60, 1050]);
  assert.deepEqual([e2e.p50[at(120)], e2e.p90[at(120)]], [1300, 1300]);
  assert.deepEqual([series.series[1]!.p50[at(60)], series.series[1]!.p50[at(120)]], [183, 683]);
  // Engine 000 -> stage 0 and 001 -> stage 1 (the LLM stages seen, in order), sampled at the step they fall in.
  const g0 = series.gauges.find((g) => g.engine === '000')!;
  assert.deepEqual([g0.stage, g0.replica, g0.mapping, g0.source], ['0', '0', 'inferred', 'log']);
  assert.deepEqual(g0.running, [3, null, null, null, 5, null, null, null]);
  assert.deepEqual(g0.kvCacheUsagePerc, [12.5, null, null, null, 40, null, null, null]);
  // Engine 001 reads 0.0% KV while running requests in every line: not a measurement.
  const finding = analysis.snapshot().findings.find((f) => f.code === 'metric-not-reporting');
  assert.ok(finding !== undefined);
  assert.equal(finding.stageId, 1);
  assert.match(
    finding.evidence ?? '',
    /Engine 001 \(stage 1 replica 0, inferred from the engine index\): 2 of 2 lines with requests running read 0\.0%/,
  );
  assert.ok((finding.knownCauses ?? []).some((c) => c.includes('#4802')));

  // Re-scoped to the second minute, with the cold switch on (no cold request here): the first minute is gone.
  const second = overTime(index, {
    scope: { fromMs: t0 + 60_000, toMs: t0 + 120_000, excludeCold: true },
    metrics: ['e2e'],
  });
  assert.ok(second.series[0]!.p50.every((v) => v === null || v === 1300));
});

test('percentiles over time on a log shorter than a step: the point at the last finish, the rate over the seconds the log covers', () => {
  // Six requests finishing within 09:00:04-09:00:12 (printed seconds): a 30 s step is chosen,
  // whose next round time (09:00:30) is past the log's end.
  const seconds = [4, 6, 7, 9, 11, 12];
  const { index } = analyse(seconds.map((s, i) => renderRequest(asyncChunk(`r${i}`, 0, hms(s)))).join(''));
  const series = overTime(index, { scope: {}, metrics: ['e2e'] });
  const t0 = Date.UTC(2026, 9, 22, 9, 0, 0);
  assert.equal(series.stepMs, 30_000);
  assert.deepEqual(series.span, { fromMs: t0 + 4_500, toMs: t0 + 12_500 });
  assert.deepEqual(series.times, [t0 + 12_500]);
  // 6 requests over the 9 printed seconds 09:00:04-09:00:12, not over the 30 s step.
  close(series.requestRate[0], 6 / 9, 'rate');
  assert.deepEqual(series.series[0]!.count, [6]);

  // Over a longer log every point lies within it too.
  const longer = analyse(
    Array.from({ length: 40 }, (_, i) => renderRequest(asyncChunk(`l${i}`, 0, hms(i * 2 + (i % 3))))).join(''),
  ).index;
  const over = overTime(longer, { scope: {}, metrics: ['e2e'] });
  assert.ok(over.times.length > 1);
  for (const t of over.times) assert.ok(t <= over.span!.toMs && t > over.span!.fromMs, `${t} outside the log`);
  for (const r of over.requestRate) assert.ok(r !== null && r > 0 && r < 1, String(r));
});

test('the Each request chart ends each request where Over Time places it: the middle of its printed second', () => {
  const seconds = [4, 6, 7, 9, 11, 12];
  const { index, analysis } = analyse(seconds.map((s, i) => renderRequest(asyncChunk(`r${i}`, 0, hms(s)))).join(''));
  const t0 = Date.UTC(2026, 9, 22, 9, 0, 0);
  const spans = spansOf(analysis.requests, index, []);
  assert.deepEqual(spans.requestIds, ['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
  assert.deepEqual(
    spans.endMs,
    seconds.map((s) => t0 + s * 1000 + 500),
  );
  // The shared time axis spans the requests' ends, not half a second past the last.
  const series = overTime(index, { scope: {}, metrics: ['e2e'] });
  assert.deepEqual(series.span, { fromMs: spans.endMs[0], toMs: spans.endMs[5] });
  // A request the index has no time for ends at its capture time.
  const captured = Date.UTC(2026, 9, 22, 9, 5, 0);
  assert.deepEqual(
    spansOf(
      analysis.requests,
      analyse('').index,
      seconds.map(() => captured),
    ).endMs,
    seconds.map(() => captured),
  );
});

test('percentiles over time: a log within one printed second gives no rate, and a session without requests no 0/s', () => {
  const { index } = analyse(['a', 'b', 'c'].map((id) => renderRequest(asyncChunk(id, 0, hms(4)))).join(''));
  const series = overTime(index, { scope: {}, metrics: ['e2e'] });
  assert.equal(series.times.length, 1);
  assert.deepEqual(series.requestRate, [null]);
  assert.deepEqual(series.series[0]!.count, [3]);

  // Engine lines only: the gauges are drawn, the rate is not measured (no request has a time).
  const { index: none, analysis } = analyse(
    engineLine(hms(10), '000', 3, 1, '12.5') + engineLine(hms(40), '000', 2, 0, '10.0'),
  );
  const gauges = overTime(none, { scope: {} }, gaugesOfEngines(analysis.engineSeries()));
  assert.ok(gauges.times.length > 0);
  assert.ok(
    gauges.requestRate.every((r) => r === null),
    JSON.stringify(gauges.requestRate),
  );
  assert.equal(gauges.times.at(-1), Date.UTC(2026, 9, 22, 9, 0, 40) + 500);
});

test('in-flight counts kept as requests arrive equal a recount from scratch (random arrivals, out-of-order logging, stage spans, two boots on a restarted clock; exact times and 1 s ones)', () => {
  const rand = mulberry32(11);
  for (let round = 0; round < 40; round++) {
    // Half the rounds with times known to 1 s: another request counts only while it had more than 1 s left.
    const resolution = round % 2 === 0 ? 0 : 1000;
    const counts = new InFlightCounts();
    type Made = {
      boot: number;
      arrival: number;
      finish: number;
      spans: { stageKey: string; start: number; end: number }[];
    };
    const reqs: Made[] = [];
    const n = 40 + Math.floor(rand() * 80);
    // Log order: boot 1's requests, then boot 2's on a clock that restarted (the same 20 s again);
    // in each, by finish, with some requests logged late (another stream) and some arrivals unknown.
    const made = [1, 2].flatMap((boot) =>
      Array.from({ length: n >> 1 }, (): Made => {
        const arrival = Math.round(rand() * 20_000);
        const e2e = Math.round(100 + rand() * 5000);
        const s0 = arrival + Math.round(rand() * 50);
        const s1 = arrival + Math.round(rand() * 200);
        return {
          boot,
          arrival,
          finish: arrival + e2e,
          spans: [
            { stageKey: '0', start: s0, end: s0 + Math.round(e2e * 0.6) },
            { stageKey: '1', start: s1, end: arrival + e2e - 5 },
          ],
        };
      }).sort((a, b) => a.finish - b.finish + (rand() < 0.1 ? 3000 : 0)),
    );
    made.forEach((r, row) => {
      const unknown = rand() < 0.05;
      const spans = unknown ? [] : r.spans.filter(() => rand() < 0.9);
      counts.add(row, r.boot, unknown ? NaN : r.arrival, r.finish, spans, resolution);
      reqs.push(unknown ? { ...r, arrival: NaN, spans: [] } : { ...r, spans });
    });
    reqs.forEach((r, i) => {
      if (Number.isNaN(r.arrival)) {
        assert.equal(counts.count(i), -1);
        return;
      }
      const others = reqs.filter((o, j) => j !== i && o.boot === r.boot && !Number.isNaN(o.arrival));
      const expected = others.filter((o) => o.arrival <= r.arrival && o.finish - resolution > r.arrival).length;
      assert.equal(counts.count(i), expected, `round ${round} request ${i}`);
      for (const stageKey of ['0', '1']) {
        const inStage = others.filter((o) =>
          o.spans.some((s) => s.stageKey === stageKey && s.start <= r.arrival && s.end - resolution > r.arrival),
        ).length;
        assert.equal(counts.stageCount(stageKey, i), inStage, `round ${round} request ${i} stage ${stageKey}`);
      }
    });
  }
});

test('percentiles over time answered again after more requests arrive: only the new steps change, and equal a fresh answer', () => {
  const rand = mulberry32(5);
  const specs = Array.from({ length: 300 }, (_, s) =>
    asyncChunk(`r${s}`, Math.round(rand() * 400), hms(Math.floor(s / 2))),
  );
  const texts = specs.map(renderRequest);
  const cache = new OverTimeCache();
  for (const upTo of [100, 101, 160, 230, 300]) {
    const { index } = analyse(texts.slice(0, upTo).join(''));
    const fresh = overTime(index, { scope: {} });
    const cached = overTime(index, { scope: {} }, [], cache);
    assert.deepEqual(cached, fresh, `after ${upTo} requests`);
  }
});
