// Stage roles named by a path (a log named for one model, another model's deploy config) are
// dropped when the stages' own numbers contradict them: a stage that printed audio is no
// talker or diffusion stage, a third stage has no role in a two-stage pipeline, a stage with
// diffusion fields is the diffusion stage. Kept for every log named for its own pipeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { roleMisfit, rolesThatFit, StageOutputEvidence, type StageOutput } from '../../server/core/analysis/roleFit';
import { stageRolesOf } from '../../server/core/stageRoles';
import { TABLE_SUMMARY_FIELDS, tableReport } from '../../server/core/report/tableReport';
import { analysedStream } from './support/analysedLog';
import { glmImageLog } from './support/simulatedLog';

const UPSTREAM = path.join(__dirname, '../fixtures/upstream-rendered');
const read = (name: string): Buffer => fs.readFileSync(path.join(UPSTREAM, `${name}.log`));

/** The log read as the CLI's table reads it: only the table's fields summarized. */
function tableAnalysis(bytes: Buffer | string, roles: Readonly<Record<string, string>>): StreamAnalysis {
  const analysis = new StreamAnalysis({ summaryFields: TABLE_SUMMARY_FIELDS, stageRoles: () => roles });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(typeof bytes === 'string' ? Buffer.from(bytes) : bytes));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

/** What each stage printed, gathered as the analysis gathers it. */
function stagesOf(bytes: Buffer | string): readonly StageOutput[] {
  const evidence = new StageOutputEvidence();
  for (const r of analysedStream(typeof bytes === 'string' ? Buffer.from(bytes) : bytes).requests) evidence.add(r);
  return evidence.stages();
}

test('each log keeps the roles of its own pipeline', () => {
  for (const [name, pipeline] of [
    ['qwen3tts-talker-first-audio-before-fix', 'qwen3_tts.yaml'],
    ['qwen3tts-talker-first-audio-after-fix', 'qwen3_tts.yaml'],
    ['qwen3tts-info-level-omnitiming-only', 'qwen3_tts.yaml'],
    ['qwen3-omni-three-stage-transfers', 'qwen3_omni_moe.yaml'],
  ] as const) {
    const roles = stageRolesOf(pipeline);
    assert.equal(roleMisfit(roles, stagesOf(read(name))), null, name);
  }
  assert.deepEqual(rolesThatFit(stageRolesOf('glm_image.yaml'), stagesOf(glmImageLog())), {
    '0': 'AR',
    '1': 'diffusion',
  });
});

test('roles the stages contradict are dropped, with the reason', () => {
  const tts = stagesOf(read('qwen3tts-talker-first-audio-after-fix'));
  assert.equal(
    roleMisfit(stageRolesOf('qwen3_omni_moe.yaml'), tts),
    'stage 1 printed audio, which a talker stage does not output',
  );
  assert.equal(
    roleMisfit(stageRolesOf('glm_image.yaml'), tts),
    'stage 1 printed audio, which a diffusion stage does not output',
  );
  assert.equal(
    roleMisfit(stageRolesOf('qwen3tts-prod.log'), stagesOf(read('qwen3-omni-three-stage-transfers'))),
    'stage 2 has no role in a talker → code2wav pipeline',
  );
  assert.equal(
    roleMisfit(stageRolesOf('qwen3_tts.yaml'), stagesOf(glmImageLog())),
    'stage 1 printed diffusion fields, which a code2wav stage does not',
  );
  assert.deepEqual(rolesThatFit(stageRolesOf('qwen3_omni_moe.yaml'), tts), {});
});

test('the table and its findings name the stages by id when the roles do not fit', () => {
  const analysis = tableAnalysis(read('qwen3tts-talker-first-audio-after-fix'), stageRolesOf('glm_image-run.log'));
  const snapshot = analysis.snapshot();
  assert.deepEqual(analysis.stageRoles(), {});
  const text = tableReport(snapshot, { source: 'glm_image-run.log', stageRoles: analysis.stageRoles() }).join('\n');
  assert.doesNotMatch(text, /diffusion|· AR/);
  assert.match(text, /\n1 +6 +p50/);
  assert.ok(snapshot.findings.length > 0);
  for (const f of snapshot.findings) assert.doesNotMatch(f.message, /diffusion|\bAR\b/, f.code);
});
