// Two runs of different pipelines (a Qwen3-TTS log against a Qwen3-Omni one): compare says so
// first, and names no stage by a role one of the runs does not have; two runs of one pipeline
// keep its roles; a run whose stages contradict its name's roles (roleFit.ts) gives none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { compareTable } from '../../server/core/compare/tableReport';
import { compareMarkdown } from '../../server/core/compare/markdownReport';
import type { RunData } from '../../server/core/compare/types';
import { glmImageLog } from './support/simulatedLog';

const UPSTREAM = path.join(__dirname, '../fixtures/upstream-rendered');

function run(file: string, source = file): RunData {
  return runOf(fs.readFileSync(path.join(UPSTREAM, file)), source);
}

function runOf(log: Buffer | string, source: string): RunData {
  const reader = new LogRunReader(false);
  reader.push(log);
  return { source, kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
}

test('a TTS run against an Omni run: the different stages said first, stages by id', () => {
  const report = compareRuns(
    run('qwen3tts-talker-first-audio-after-fix.log'),
    run('qwen3-omni-three-stage-transfers.log'),
  );
  assert.deepEqual(report.stageRoles, {});
  assert.match(report.stagesDiffer ?? '', /^The runs have different stages \(baseline 0, 1; candidate 0, 1, 2\)/);
  const table = compareTable(report);
  assert.match(table[4] ?? '', /^Warning: The runs have different stages/);
  assert.doesNotMatch(table.join('\n'), /· (thinker|talker|code2wav)/);
  assert.match(compareMarkdown(report), /\n> ⚠️ The runs have different stages/);
});

test('two runs of one pipeline keep its roles and no warning', () => {
  const report = compareRuns(
    run('qwen3tts-talker-first-audio-after-fix.log'),
    run('qwen3tts-talker-first-audio-before-fix.log'),
  );
  assert.deepEqual(report.stageRoles, { '0': 'talker', '1': 'code2wav' });
  assert.equal(report.stagesDiffer, null);
  assert.doesNotMatch(compareTable(report).join('\n'), /^Warning/m);
  // One run named for the pipeline, the other not: its name is enough.
  const oneNamed = compareRuns(
    run('qwen3tts-talker-first-audio-after-fix.log'),
    run('qwen3tts-talker-first-audio-before-fix.log', 'b.log'),
  );
  assert.deepEqual(oneNamed.stageRoles, { '0': 'talker', '1': 'code2wav' });
  // Names of two pipelines, each its own run's: neither.
  const twoNames = compareRuns(run('qwen3tts-talker-first-audio-after-fix.log'), runOf(glmImageLog(), 'glm_image.log'));
  assert.deepEqual(twoNames.stageRoles, {});
  // A TTS log named glm_image.log: its stages overrule its name (stage 1 printed audio), the other name stands.
  const misnamed = compareRuns(
    run('qwen3tts-talker-first-audio-after-fix.log'),
    run('qwen3tts-talker-first-audio-before-fix.log', 'glm_image.log'),
  );
  assert.deepEqual(misnamed.stageRoles, { '0': 'talker', '1': 'code2wav' });
  // ...and alone it names no stage.
  const misnamedOnly = compareRuns(
    run('qwen3tts-talker-first-audio-after-fix.log', 'a.log'),
    run('qwen3tts-talker-first-audio-before-fix.log', 'glm_image.log'),
  );
  assert.deepEqual(misnamedOnly.stageRoles, {});
});
