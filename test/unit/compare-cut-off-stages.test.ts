// A run whose stats were cut off (an excerpt ending inside a request's dict, real-logs 06)
// lacks the stages after the cut: compare must not say they did not run, nor that the runs are
// two pipelines, only that the part not read may hold them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { compareTable } from '../../server/core/compare/tableReport';
import { compareMarkdown } from '../../server/core/compare/markdownReport';
import type { RunData } from '../../server/core/compare/types';
import { stageGroups } from '../../webview/compare/model';

const REAL = path.join(__dirname, '../fixtures/real-logs');
// Cut off after its stage 0; 07 has stages 0 and 1 (its dict is cut later, in stage 2).
const CUT_AFTER_STAGE_0 = '06-pr1107-legacy-log_utils-request_level_metrics.log';
const TWO_STAGES = '07-issue693-legacy-log_utils.log';
const UPSTREAM = path.join(__dirname, '../fixtures/upstream-rendered');

function runOf(log: Buffer, source: string): RunData {
  const reader = new LogRunReader(false);
  reader.push(log);
  return { source, kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
}

const real = (file: string): RunData => runOf(fs.readFileSync(path.join(REAL, file)), file);

test('a cut-off baseline lacking a stage: no "did not run", no two pipelines', () => {
  const report = compareRuns(real(CUT_AFTER_STAGE_0), real(TWO_STAGES));
  assert.equal(
    report.stagesDiffer,
    'The runs have different stages (baseline 0; candidate 0, 1), but the baseline has 1 request whose stats were cut off (truncated-record): a stage a run lacks may be in the part not read, so this is no evidence of two pipelines. Rows are matched by stage id only.',
  );
  assert.ok(report.notes.includes('Stage 1 read only in the candidate.'));
  const table = compareTable(report).join('\n');
  assert.match(
    table,
    /stage 1 gen time: measured in the candidate only \(baseline: not read: 1 request had its stats cut off \(truncated-record\), so whether it ran is unknown\)/,
  );
  assert.doesNotMatch(table, /did not run|not the same pipeline|ran only in/);
  assert.doesNotMatch(compareMarkdown(report), /did not run|not the same pipeline/);
  // The Compare panel's row says the same, styled as not recorded (a row the cut never reached).
  const stage1 = stageGroups(report, false).find((g) => g.scope === '1');
  assert.deepEqual(stage1?.rows.find((r) => r.key === '1.genTime')?.oneSided, {
    text: 'measured in the candidate only; baseline: not read: 1 request had its stats cut off (truncated-record), so whether it ran is unknown',
    state: 'notRecorded',
  });
});

test('runs read whole keep the words for stages that differ', () => {
  const tts = runOf(fs.readFileSync(path.join(UPSTREAM, 'qwen3tts-talker-first-audio-after-fix.log')), 'tts.log');
  const omni = runOf(fs.readFileSync(path.join(UPSTREAM, 'qwen3-omni-three-stage-transfers.log')), 'omni.log');
  const report = compareRuns(tts, omni);
  assert.match(report.stagesDiffer ?? '', /: not the same pipeline or deploy config, so a stage of one/);
  assert.ok(report.notes.includes('Stage 2 ran only in the candidate.'));
  assert.match(compareTable(report).join('\n'), /\(baseline: did not run\)/);
});
