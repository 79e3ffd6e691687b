// The simulator's request rate and the parts made faster for it: the schedule a run
// prints (known from the options alone), the one-pass engine snapshot against the
// per-engine functions it replaces in the periodic lines, and the fast exit of the
// half-to-even number formatting against the exact slow path.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { engineSnapshots, llmEngines, stageLoad, throughput } from '../../server/simulate/engineLoad';
import { parseSimulateArgs } from '../../server/simulate/options';
import { pyFixed } from '../../server/simulate/pyFormat';
import { mulberry32 } from '../../server/simulate/seededRandom';
import { formatFloat } from '../../server/simulate/render';
import { FIRST_ARRIVAL_US, runTimingModel, statsSchedule } from '../../server/simulate/schedule';
import type { RequestRun } from '../../server/simulate/timeline';

const BENCH_DEPLOY = path.resolve(__dirname, '../fixtures/sim/deploy/sim_tts_bench.yaml');
const benchOptions = (rps: number, seed = 3) =>
  parseSimulateArgs(['--deploy-config', BENCH_DEPLOY, '--rps', String(rps), '--seed', String(seed)])!;

describe('request schedule', () => {
  test('--rps is the arrival rate of simulated time: 500/s over 60 s, arrivals from 0.5 s on', () => {
    const s = statsSchedule(benchOptions(500), 60_000_000);
    const perS = s.arrivals / ((60_000_000 - FIRST_ARRIVAL_US) / 1e6);
    assert.ok(Math.abs(perS - 500) < 10, `${perS}/s`);
    // Each request prints when it finished: all but the last seconds' arrivals are printed by the end.
    assert.ok(
      s.printAt.length < s.arrivals && s.printAt.length > s.arrivals - 5 * 500,
      `${s.printAt.length} of ${s.arrivals}`,
    );
    for (let i = 1; i < s.printAt.length; i++) assert.ok(s.printAt[i - 1]! <= s.printAt[i]!);
    assert.ok(s.printAt[s.printAt.length - 1]! <= 60_000_000);
    assert.ok(s.printAt[0]! > FIRST_ARRIVAL_US);
  });

  test('the schedule is the timing model the runner uses: same requests, same print times', () => {
    const o = benchOptions(200, 8);
    const model = runTimingModel(o);
    const until = 5_000_000;
    const runs: RequestRun[] = [];
    while (model.peekArrival() <= until) runs.push(model.next());
    const s = statsSchedule(o, until);
    assert.equal(s.arrivals, runs.length);
    assert.deepEqual(
      s.printAt,
      runs
        .map((r) => r.statsLoggedTs)
        .filter((t) => t <= until)
        .sort((a, b) => a - b),
    );
    // A later end only adds requests: the first 5 s are a prefix of the first 6 s.
    const longer = statsSchedule(o, 6_000_000);
    assert.deepEqual(
      longer.printAt.filter((t) => t <= until),
      s.printAt,
    );
  });
});

describe('engine snapshots for the periodic engine lines', () => {
  test('one pass equals throughput() and stageLoad() per engine, to the last bit', () => {
    const o = benchOptions(500, 5);
    const model = runTimingModel(o);
    const runs: RequestRun[] = [];
    while (model.peekArrival() <= 25_000_000) runs.push(model.next());
    const engines = llmEngines(o.topology);
    assert.equal(engines.length, 28);
    for (const t of [10_000_000, 20_000_000]) {
      const snapshots = engineSnapshots(runs, engines, t - 10_000_000, t);
      let busy = 0;
      for (const [i, e] of engines.entries()) {
        const tp = throughput(runs, e, t - 10_000_000, t);
        const load = stageLoad(runs, e.stageId, e.replicaId, t);
        assert.deepEqual(snapshots[i], {
          prompt: tp.prompt,
          generation: tp.generation,
          running: load.running,
          waiting: load.waiting,
          kvTokens: load.kvTokens,
        });
        if (load.running > 0) busy++;
      }
      assert.equal(busy, engines.length, 'every engine busy at 500 requests/s');
    }
  });
});

/** The exact (slow) half-to-even rule the formatting had before its fast exit. */
function exactHalfEven(x: number, digits: number): string {
  const plain = x.toFixed(digits);
  const exact = Math.abs(x).toFixed(100);
  const dot = exact.indexOf('.');
  if (!/^50*$/.test(exact.slice(dot + 1 + digits))) return plain;
  const truncated = exact.slice(0, dot + 1 + digits);
  if (Number(truncated[truncated.length - 1]) % 2 !== 0) return plain;
  return (x < 0 ? '-' : '') + truncated.replace(/\.$/, '');
}

test('half-to-even formatting: the fast exit agrees with the exact rule on ties and near-ties', () => {
  const next = mulberry32(42);
  const values: number[] = [0.0625, 1.0625, 2.675, 0.125, 1234567.5, 4503599627.3705, 2 ** 52 / 1000 + 0.5, 1e15 + 0.5];
  for (let i = 0; i < 20_000; i++) {
    values.push(Math.floor(next() * 1e7) / 2 ** Math.floor(next() * 14)); // many exact binary ties
    values.push((Math.floor(next() * 1e6) + 0.5) / 1000); // decimal near-ties, rarely exact
    values.push(next() * 10 ** Math.floor(next() * 14));
  }
  let ties = 0;
  for (const v of values) {
    const want = exactHalfEven(v, 3);
    if (want !== v.toFixed(3)) ties++;
    assert.equal(formatFloat(v).replace(/,/g, ''), want, String(v));
    for (const d of [1, 2]) assert.equal(pyFixed(v, d), exactHalfEven(v, d), `${v} ${d}`);
    assert.equal(pyFixed(-v, 2), exactHalfEven(-v, 2), String(-v));
  }
  assert.ok(ties > 100, `${ties} ties rounded to even`);
});
