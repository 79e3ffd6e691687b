// A live view's frame fitted to its terminal (server/core/report/liveFrame.ts): lines cut to
// the width, the frame cut to the height with the count of what is left, findings moved
// under the phase table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  findingsEnd,
  findingsFirst,
  fitFrame,
  fitLine,
  fitLineStart,
  screenSize,
} from '../../server/core/report/liveFrame';
import { textTable } from '../../server/core/textTable';

test('a line longer than the width is cut to it, its last column an ellipsis; a shorter one is kept', () => {
  assert.equal(fitLine('0123456789', 10), '0123456789');
  assert.equal(fitLine('0123456789A', 10), '012345678…');
  assert.equal(fitLine('', 10), '');
  // Counted in characters, not UTF-16 units or bytes: `·` and `≈` take one column.
  assert.equal(fitLine('1 · talker ≈', 12), '1 · talker ≈');
  assert.equal(fitLine('1 · talker ≈ 0.25', 12), '1 · talker …');
});

test('a line cut from its start keeps its end, its first column an ellipsis; a shorter one is kept', () => {
  assert.equal(fitLineStart('0123456789', 10), '0123456789');
  assert.equal(fitLineStart('0123456789A', 10), '…23456789A');
  assert.equal(fitLineStart('/a/very/long/folder/talker-codec.log', 20), '…er/talker-codec.log');
  assert.equal(fitLineStart('', 10), '');
  assert.equal(fitLineStart('0123', 1), '…');
  assert.equal(fitLineStart('0123', 0), '');
  // Counted in code points, as fitLine: an astral character is one column, never split.
  assert.equal(fitLineStart('/logs/𝔸𝔹ℂ/run.log', 17), '/logs/𝔸𝔹ℂ/run.log');
  assert.equal(fitLineStart('/logs/𝔸𝔹ℂ/run.log', 10), '…ℂ/run.log');
  assert.equal(fitLineStart('/logs/𝔸𝔹ℂ/run.log', 11), '…𝔹ℂ/run.log');
});

test('a frame within the height keeps every line, cut to the width, without trailing blank lines', () => {
  const lines = ['Live · demo', 'x'.repeat(100), '', 'end', '', ''];
  assert.deepEqual(fitFrame(lines, 20, 10), ['Live · demo', `${'x'.repeat(19)}…`, '', 'end']);
});

test('a frame taller than the screen keeps its top and says how many lines the final summary adds', () => {
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
  const frame = fitFrame(lines, 80, 29);
  assert.equal(frame.length, 29);
  assert.equal(frame[0], 'line 0');
  assert.equal(frame[27], 'line 27');
  assert.equal(frame[28], '… 12 more lines in the final summary');
  // On a narrow screen that line is cut too.
  assert.equal(fitFrame(lines, 12, 5)[4], '… 36 more l…');
});

test('the findings block moves under the head and the phase table; the rest follows in its order', () => {
  const report = [
    'Live · demo · 3s',
    'Stage Lens: 3 requests',
    '',
    'Phase split per stage',
    'stage  n  p50',
    '',
    'Few values: …',
    '  stage 0 (n = 3)',
    '',
    'Findings:',
    '  [info] cold-start, 1 request: …',
    '  [warning] codec-ttft-first-audio (stage 1), 3 requests: …',
    '',
    'Input problems (1):',
  ];
  assert.deepEqual(findingsFirst(report), [
    'Live · demo · 3s',
    'Stage Lens: 3 requests',
    '',
    'Phase split per stage',
    'stage  n  p50',
    '',
    'Findings:',
    '  [info] cold-start, 1 request: …',
    '  [warning] codec-ttft-first-audio (stage 1), 3 requests: …',
    '',
    'Few values: …',
    '  stage 0 (n = 3)',
    '',
    'Input problems (1):',
  ]);
  // Findings last: the same move, no blank line lost or added.
  const last = ['h', '', 'table', '', 'notes', '', 'Findings:', '  [info] x'];
  assert.deepEqual(findingsFirst(last), ['h', '', 'table', '', 'Findings:', '  [info] x', '', 'notes']);
  // No findings, or nothing but them: unchanged.
  assert.deepEqual(findingsFirst(['h', '', 'table']), ['h', '', 'table']);
});

test('a table wider than the terminal folds its columns into blocks that repeat the first ones; a narrower one is one block', () => {
  const header = ['stage', 'n', '', 'queued', 'prefill', 'decode', 'TTFT'];
  const rows = [
    ['0 · talker', '6', 'p50', '1.250', '84.90', '1,100', '90.10'],
    ['', '', 'p99', '3.500', '3,900', '3,950', '120.0'],
  ];
  const whole = textTable(header, rows);
  assert.deepEqual(whole, [
    'stage       n       queued  prefill  decode   TTFT',
    '----------  -  ---  ------  -------  ------  -----',
    '0 · talker  6  p50   1.250    84.90   1,100  90.10',
    '               p99   3.500    3,900   3,950  120.0',
  ]);
  assert.deepEqual(textTable(header, rows, { width: 80, keep: 3 }), whole);
  const folded = textTable(header, rows, { width: 36, keep: 3 });
  assert.deepEqual(folded, [
    'stage       n       queued  prefill',
    '----------  -  ---  ------  -------',
    '0 · talker  6  p50   1.250    84.90',
    '               p99   3.500    3,900',
    'stage       n       decode   TTFT',
    '----------  -  ---  ------  -----',
    '0 · talker  6  p50   1,100  90.10',
    '               p99   3,950  120.0',
  ]);
  assert.ok(folded.every((l) => [...l].length <= 36));
});

test('the lines a frame needs for its head, phase table and first findings', () => {
  const lines = ['head', 'Stage Lens', '', 'table', 'row', '', 'Findings:', '  a', '  b', '', 'rest'];
  assert.equal(findingsEnd(lines), 9);
  assert.equal(findingsEnd(lines, 1), 8);
  assert.equal(findingsEnd(['head', '', 'table', '', 'rest']), 3);
});

test('a terminal that says no size, or 0 (a pty never sized), is taken as 80×24', () => {
  assert.deepEqual(screenSize(undefined, undefined), { width: 80, height: 24 });
  assert.deepEqual(screenSize(0, 0), { width: 80, height: 24 });
  assert.deepEqual(screenSize(200, 0), { width: 200, height: 24 });
  assert.deepEqual(screenSize(120, 40), { width: 120, height: 40 });
});
