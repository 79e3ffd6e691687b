// A run that prints no split of a stage's gen time (an INFO-level log: [OmniTiming] only) against
// one that does: the tail's excess in that stage is the same time, unsplit in one run, so the
// sentence must not say it "moved" from the unsplit gen time to a phase.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { compareTable } from '../../server/core/compare/tableReport';
import type { RunData } from '../../server/core/compare/types';

const UPSTREAM = path.join(__dirname, '../fixtures/upstream-rendered');

function run(file: string): RunData {
  const reader = new LogRunReader(false);
  reader.push(fs.readFileSync(path.join(UPSTREAM, file)));
  return { source: file, kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
}

const INFO = 'qwen3tts-info-level-omnitiming-only.log';
const DEBUG = 'qwen3tts-talker-first-audio-after-fix.log';

test('INFO-level baseline against a DEBUG candidate: the excess lies in stage 0 in both, no move between phases', () => {
  const report = compareRuns(run(INFO), run(DEBUG));
  assert.equal(
    report.tail?.sentence,
    "the p99 excess of end-to-end time lies in stage 0 · talker in both runs: its gen time not split (no prefill/decode values) in the baseline (+3.05 s), its prefill+decode (one output) in the candidate (+3.05 s) (+3.05 s → +3.05 s over the median); the baseline does not split that stage's gen time, so this is no move from one phase to another.",
  );
  assert.doesNotMatch(compareTable(report).join('\n'), /moved from/);
});

test('the other way round names the candidate as the run without the split', () => {
  const report = compareRuns(run(DEBUG), run(INFO));
  assert.match(report.tail?.sentence ?? '', /; the candidate does not split that stage's gen time, so this is no move/);
});
