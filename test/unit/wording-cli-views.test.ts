// The CLI and the views say the same thing in the same words: one duration rule, the target's
// label ("time to first audio" where the stage outputs audio), a transfer edge as "0 → 1", and
// one word per value state. Each check reads both sides' real output on the upstream-rendered
// logs (or the shared functions both sides call) and compares them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { readExplainInput } from '../../server/capture/explainInput';
import { explainReport } from '../../server/core/explain/explainReport';
import { explainTable, targetLabel } from '../../server/core/explain/explainTable';
import { durationText } from '../../server/core/numberText';
import { tableReport } from '../../server/core/report/tableReport';
import { stageRolesOf } from '../../server/core/stageRoles';
import { formatDurationMs } from '../../webview/shared/format';
import { partText, targetText } from '../../webview/shared/tailModel';
import { noNumberText } from '../../webview/shared/valueState';
import { analysedLog } from './support/analysedLog';

const DIR = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');
const BEFORE = path.join(DIR, 'qwen3tts-talker-first-audio-before-fix.log');
const OMNI = path.join(DIR, 'qwen3-omni-three-stage-transfers.log');

async function explainText(file: string): Promise<string> {
  const input = await readExplainInput(file, new PassThrough());
  const report = explainReport(
    input.index,
    file,
    { scope: { excludeCold: false }, stageRoles: input.stageRoles },
    input.gauges,
    input.findings,
  );
  return explainTable(report).join('\n');
}

test('a duration: ms below 1 s, s from 1 s with three significant digits, then min and s, then h and min, the same on both sides', () => {
  const cases: [number, string][] = [
    [0, '0 ms'],
    [0.36, '0.36 ms'],
    [96.7, '96.7 ms'],
    [151.2, '151 ms'],
    [999.4, '999 ms'],
    // The unit from the rounded value: never "1,000 ms".
    [999.7, '1.00 s'],
    [3803, '3.80 s'],
    [9996, '10.0 s'],
    [38_040, '38.0 s'],
    // From 1 min, whole minutes and seconds; from 1 h, hours and minutes.
    [59_990, '1 min'],
    [86_443, '1 min 26 s'],
    [1_800_000, '30 min'],
    [3_599_600, '1 h'],
    [3_900_000, '1 h 5 min'],
    [-86_443, '-1 min 26 s'],
    [-3803, '-3.80 s'],
  ];
  for (const [ms, text] of cases) {
    assert.equal(durationText(ms), text, String(ms));
    assert.equal(formatDurationMs(ms), text, String(ms));
  }
});

test('the p99 threshold and median of a tail read as the Tail tab reads them, not "≥ 3,803 ms"', async () => {
  const text = await explainText(BEFORE);
  assert.match(
    text,
    /^Why end-to-end time is slow at p99: 1 of 6 requests at or above 2\.03 s, on average 789 ms above the median 1\.26 s$/m,
  );
  assert.doesNotMatch(text, /\d,\d{3} ms/);
});

test('a stage whose output is audio: "time to first audio" in the CLI as in the views', async () => {
  const roles = stageRolesOf(BEFORE);
  assert.deepEqual(roles, { '0': 'talker', '1': 'code2wav' });
  assert.equal(targetLabel('stage1.firstOutput', roles), 'time to first audio (stage 1 · code2wav)');
  assert.equal(targetText('stage1.firstOutput', roles), targetLabel('stage1.firstOutput', roles));
  assert.equal(targetLabel('stage0.ttft', roles), 'stage 0 TTFT (talker)');
  // Without roles (a log named for no known pipeline) both say the stage's time to first output.
  assert.equal(targetText('stage1.firstOutput', {}), 'stage 1 time to first output');
  const text = await explainText(BEFORE);
  assert.match(text, /^Why time to first audio \(stage 1 · code2wav\) is slow at p99: /m);
  assert.doesNotMatch(text, /stage 1 time to first output/);
});

test('a transfer edge is "0 → 1" in the CLI tables and text, as in the views', async () => {
  const text = await explainText(OMNI);
  assert.match(text, /^ {2}0 → 1 tx +\+/m);
  assert.doesNotMatch(text, /\d->\d/);
  assert.match(
    text,
    new RegExp(`^ {2}${partText({ stageKey: null, phase: 'transfer', edge: '0->1', component: 'tx' }, {})} `, 'm'),
  );
  const table = tableReport(analysedLog(OMNI), { source: OMNI }).join('\n');
  assert.match(table, /^0 → 1 +3 +3 +p50 /m);
  assert.match(table, /^ {2}edge 1 → 2 \(n = 3\): p90 and p99$/m);
});

test('a phase with no number: the CLI cell and the views say its state in the same word', () => {
  const snapshot = analysedLog(BEFORE);
  const codec = snapshot.stages.find((s) => s.stageKey === '1' && s.replicaId === null)!;
  assert.equal(noNumberText(codec, 'split:ttftMs'), 'not recorded');
  assert.equal(noNumberText(codec, 'split:prefillMs'), 'not measured');
  assert.equal(noNumberText(codec, 'split:decodeMs'), 'hidden');
  const table = tableReport(snapshot, { source: BEFORE }).join('\n');
  assert.match(table, /^1 +6 +p50 +94\.34 +not measured +hidden +not recorded +1,250 /m);
  // The [OmniTiming] 0.00 ms sends with no payload transfer: "not recorded", as the side panel's Transfers table.
  assert.match(table, /^0 → 1 +6 +0 +p50 +- +- +- +- +not recorded$/m);
  assert.doesNotMatch(table, /none measured|nothing measured/);
});
