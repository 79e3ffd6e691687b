// The simulator's request rate as a real process: a run's output follows the simulated
// clock and the seed only. Ticks late or coalesced (a high --speed) or a reader that
// stops reading for a while (pipe full, the simulator waits for 'drain') change how the
// output is chunked, never what it says: the same requests, in the same order, as
// many as the seed's schedule says, arriving at --rps of simulated time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parseSimulateArgs } from '../../server/simulate/options';
import { statsSchedule } from '../../server/simulate/schedule';
import { killAll, runToEnd, SIMULATE } from './support/simulateProcess';

const ROOT = path.resolve(__dirname, '../..');
const BENCH_DEPLOY = path.join(ROOT, 'test/fixtures/sim/deploy/sim_tts_bench.yaml');
const ARGS = [
  '--deploy-config',
  BENCH_DEPLOY,
  '--debug-tables',
  '--rps',
  '500',
  '--duration',
  '4',
  '--seed',
  '3',
  '--fixed-clock',
  '--port',
  '0',
];

after(killAll);

const normalize = (s: string): string =>
  s.replace(/127\.0\.0\.1:\d+(?=\n|$)/g, '127.0.0.1:PORT').replace(/'port': \d+/, "'port': PORT");
const count = (s: string, needle: string): number => s.split(needle).length - 1;

/** Runs to the end with a reader that stops reading for `pauseMs` once the first requests are out. */
function runWithStalledReader(
  args: readonly string[],
  pauseMs: number,
): Promise<{ code: number | null; stdout: string; stalled: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SIMULATE, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const chunks: Buffer[] = [];
    let stalled = false;
    child.stdout.on('data', (b: Buffer) => {
      chunks.push(b);
      if (!stalled && b.includes('[OmniTiming]')) {
        stalled = true;
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), pauseMs);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout: Buffer.concat(chunks).toString('utf8'), stalled });
    });
  });
}

describe('simulator request rate (real process)', { concurrency: true }, () => {
  test("--rps 500 --duration 4: the seed schedule's requests, identical at --speed 1 and 40 and with a stalled reader", async () => {
    const schedule = statsSchedule(parseSimulateArgs(ARGS)!, 4_000_000);
    // Poisson arrivals from 0.5 s on: about 1,750 in 3.5 s of simulated time.
    assert.ok(Math.abs(schedule.arrivals - 1750) < 90, `${schedule.arrivals} arrivals`);
    const [realTime, fast, stalled] = await Promise.all([
      runToEnd([...ARGS, '--speed', '1'], 30_000),
      runToEnd([...ARGS, '--speed', '40'], 30_000),
      // At --speed 4 the run lasts 1 s of wall time: most of its output piles up behind the paused reader.
      runWithStalledReader([...ARGS, '--speed', '4'], 1_500),
    ]);
    assert.deepEqual(realTime.exit, { code: 0, signal: null });
    assert.deepEqual(fast.exit, { code: 0, signal: null });
    assert.equal(stalled.code, 0);
    assert.ok(stalled.stalled);
    const out = realTime.stdout;
    assert.equal(count(out, '[OmniTiming]'), schedule.printAt.length);
    assert.equal(count(out, '[StageRequestStats [request_id='), schedule.printAt.length);
    assert.equal(count(out, '"POST /v1/audio/speech HTTP/1.1" 200 OK'), schedule.arrivals);
    assert.ok(schedule.printAt.length > 800, `${schedule.printAt.length} printed`);
    assert.match(out, /Application shutdown complete\.\n$/);
    assert.equal(normalize(fast.stdout), normalize(out));
    assert.equal(normalize(stalled.stdout), normalize(out));
  });
});

describe('log timestamps at a high --speed', () => {
  test('stamp simulated time from the start, so they agree with the durations the tables print', async () => {
    const started = Date.now();
    const { exit, stdout } = await runToEnd(
      ['--requests', '12', '--rps', '2', '--speed', '40', '--seed', '5', '--debug-tables', '--port', '0'],
      30_000,
    );
    const wallS = (Date.now() - started) / 1000;
    assert.equal(exit.code, 0);
    const seconds = [...stdout.matchAll(/ (\d\d):(\d\d):(\d\d) \[/g)].map(
      (m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
    );
    assert.ok(seconds.length > 12);
    // Twelve requests at 2 per second of simulated time span about 6 s of it, in well under 6 s of wall time.
    const spanS = Math.max(...seconds) - Math.min(...seconds);
    assert.ok(spanS >= 4, `the log spans ${spanS} s`);
    assert.ok(wallS < spanS, `the run took ${wallS} s of wall time`);
  });
});
