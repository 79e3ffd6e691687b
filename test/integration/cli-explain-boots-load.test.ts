// `stage-lens explain`'s load at arrival on samples/qwen3-tts-first-audio-cold-start.log, as a user
// runs it (the built CLI as a child process): two server boots in one log, the second's clock
// restarting at 18:00:00, before the first boot's last line (18:00:31). One client sends one
// request at a time in each boot, so no request finds another of its boot in flight; boot 1's
// 10 s cold request overlaps boot 2's arrivals only on the restarted clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliStdout } from './support/cliProcess';
import type { LoadAtArrival } from '../../server/core/explain/types';

const SAMPLE = 'samples/qwen3-tts-first-audio-cold-start.log';

function loads(...args: string[]): LoadAtArrival[] {
  return (JSON.parse(cliStdout(['explain', SAMPLE, '--format', 'json', ...args])) as { load: LoadAtArrival[] }).load;
}

/** The lines of the block that starts with a line matching `head`, to the next empty line. */
function block(text: string, head: RegExp): string[] {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => head.test(l));
  assert.notEqual(from, -1, `no line matching ${head} in:\n${text}`);
  const to = lines.indexOf('', from);
  return lines.slice(from, to === -1 ? undefined : to);
}

test('load at arrival over two boots whose clock restarts: no request of one boot is in flight at an arrival of the other', () => {
  const [e2e] = loads('--target', 'e2e', '--quantile', 'p95');
  assert.ok(e2e !== undefined);
  assert.equal(e2e.arrivalsKnown, 25);
  assert.equal(e2e.boot, undefined);
  // Every request in bucket 0, the 10,042.213 ms cold request of boot 1 among them.
  assert.deepEqual(
    e2e.buckets.map((b) => [b.minInFlight, b.maxInFlight, b.count, b.tailCount, b.target?.max]),
    [[0, 0, 25, 2, 10042.213]],
  );
  assert.deepEqual(
    [e2e.inFlight.all?.mean, e2e.inFlight.tail?.mean, e2e.stages.map((s) => [s.stageKey, s.all?.mean, s.tail?.mean])],
    [
      0,
      0,
      [
        ['0', 0, 0],
        ['1', 0, 0],
      ],
    ],
  );
  const text = cliStdout(['explain', SAMPLE, '--target', 'e2e', '--quantile', 'p95']);
  const lines = block(text, /^Load at arrival \(end-to-end time, p95 tail;/);
  assert.match(
    lines[0] ?? '',
    /: No other request was in flight when any request arrived: the tail was slower on its own, not queued behind others\.$/,
  );
  assert.ok(lines.includes('  mean in flight at arrival, all / tail: 0.0 / 0.0'), lines.join('\n'));
  assert.doesNotMatch(text, /busier server/);
});

test('explain --by-boot: one load at arrival per boot, each over its own requests and the tail attributed above it', () => {
  const report = JSON.parse(
    cliStdout(['explain', SAMPLE, '--format', 'json', '--target', 'e2e', '--quantile', 'p95', '--by-boot']),
  ) as { load: LoadAtArrival[]; tail: { boot?: number; thresholdMs: number }[] };
  assert.deepEqual(
    report.load.map((l) => [
      l.boot,
      l.arrivalsKnown,
      l.thresholdMs,
      l.buckets.map((b) => [b.minInFlight, b.count, b.tailCount]),
    ]),
    [
      [1, 15, 4169.5427, [[0, 15, 1]]],
      [2, 10, 3350.3017, [[0, 10, 1]]],
    ],
  );
  assert.deepEqual(
    report.tail.map((t) => [t.boot, t.thresholdMs]),
    report.load.map((l) => [l.boot, l.thresholdMs]),
  );
  const text = cliStdout(['explain', SAMPLE, '--target', 'e2e', '--quantile', 'p95', '--by-boot']);
  for (const [boot, requests] of [
    [1, 15],
    [2, 10],
  ]) {
    const lines = block(text, new RegExp(`^Load at arrival \\(end-to-end time, p95 tail, boot ${boot};`));
    assert.match(lines[0] ?? '', new RegExp(`: Only ${requests} requests with a known arrival, 1 in the p95 tail`));
    assert.ok(lines.includes('  mean in flight at arrival, all / tail: 0.0 / 0.0'), lines.join('\n'));
  }
  assert.equal(text.match(/^Load at arrival/gm)?.length, 2);
});
