// Boots of one log that served different pipelines: logs made of upstream-rendered fixtures, each
// after the boot lines a server prints at start (the version line, the non-default args naming
// its model), as restarts appended to one file give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analysedStream } from './support/analysedLog';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { glmImageLog } from './support/simulatedLog';

const RENDERED = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');
const TTS = readFileSync(path.join(RENDERED, 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8');
const TTS_BEFORE_FIX = readFileSync(path.join(RENDERED, 'qwen3tts-talker-first-audio-before-fix.log'), 'utf8');
const OMNI = readFileSync(path.join(RENDERED, 'qwen3-omni-three-stage-transfers.log'), 'utf8');

/** The lines a server prints at start, naming `model` (null: no args line). */
function bootLines(model: string | null): string {
  const p = '(APIServer pid=7001) INFO 10-19 07:00:00';
  return (
    `${p} [entrypoints/openai/api_server.py:1805] vLLM API server version 0.11.0\n` +
    (model === null
      ? ''
      : `${p} [entrypoints/utils.py:326] non-default args: {'model_tag': '${model}', 'model': '${model}', 'omni': True, 'log_stats': True}\n`)
  );
}

const TTS_MODEL = 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice';
const OMNI_MODEL = 'Qwen/Qwen3-Omni-30B-A3B-Instruct';
const logOf = (...parts: string[]): Uint8Array => Buffer.from(parts.join(''), 'utf8');

test('a server restarted with the same pipeline gives no boots-differ-in-pipeline finding', () => {
  const analysis = analysedStream(logOf(bootLines(TTS_MODEL), TTS, bootLines(TTS_MODEL), TTS_BEFORE_FIX));
  const snapshot = analysis.snapshot();
  assert.equal(snapshot.boots, 2);
  assert.deepEqual(
    analysis.bootPipelineShapes().map((p) => [p.boot, p.requests, p.model, p.stages.map((s) => s.units.join('+'))]),
    [
      [1, 6, TTS_MODEL, ['latent', 'audio']],
      [2, 6, TTS_MODEL, ['latent', 'audio']],
    ],
  );
  assert.equal(
    snapshot.findings.find((f) => f.code === 'boots-differ-in-pipeline'),
    undefined,
  );
});

test('boots of a TTS and an Omni pipeline give the warning, naming the boots and how they differ', () => {
  const analysis = analysedStream(logOf(bootLines(TTS_MODEL), TTS, bootLines(OMNI_MODEL), OMNI));
  const shapes = analysis.bootPipelineShapes();
  assert.deepEqual(
    shapes.map((p) => [
      p.boot,
      p.requests,
      p.model,
      p.stages.map((s) => `${s.stageId} ${s.kind} ${s.units.join('+')}`),
    ]),
    [
      [1, 6, TTS_MODEL, ['0 llm latent', '1 llm audio']],
      [2, 3, OMNI_MODEL, ['0 llm text', '1 llm latent', '2 llm audio']],
    ],
  );
  const finding = analysis.snapshot().findings.find((f) => f.code === 'boots-differ-in-pipeline');
  assert.ok(finding !== undefined);
  assert.equal(finding.severity, 'warning');
  assert.equal(finding.requestCount, 0);
  assert.equal(
    finding.message,
    `The server boots in this log served 2 different pipelines: boot 1 (6 requests, ${TTS_MODEL}): stages 0 llm → latent, 1 llm → audio; ` +
      `boot 2 (3 requests, ${OMNI_MODEL}): stages 0 llm → text, 1 llm → latent, 2 llm → audio. ` +
      'They differ: boot 1 has stages 0 and 1, boot 2 stages 0, 1 and 2; stage 0 outputs latent in boot 1, text in boot 2; stage 1 outputs audio in boot 1, latent in boot 2. ' +
      "The per-stage rows pool each stage id over every boot, so a stage's percentiles mix different stages (and models) and describe none of them. " +
      'Read one boot at a time: stage-lens analyze --boot 1 or 2 (explain takes --boot too).',
  );
  // The live summary (the editor's sessions) carries it too.
  assert.ok(analysis.summary().findings.some((f) => f.code === 'boots-differ-in-pipeline'));
});

test('a TTS boot and an AR → diffusion image boot: stage 1 is an LLM codec in one, a diffusion stage in the other', () => {
  const analysis = analysedStream(logOf(bootLines(TTS_MODEL), TTS, bootLines('zai-org/GLM-Image'), glmImageLog()));
  assert.deepEqual(
    analysis
      .bootPipelineShapes()
      .map((p) => [p.boot, p.requests, p.stages.map((s) => `${s.stageId} ${s.kind} ${s.units.join('+')}`)]),
    [
      [1, 6, ['0 llm latent', '1 llm audio']],
      [2, 8, ['0 llm latent', '1 diffusion image']],
    ],
  );
  const finding = analysis.snapshot().findings.find((f) => f.code === 'boots-differ-in-pipeline');
  assert.match(
    finding?.message ?? '',
    /boot 2 \(8 requests, zai-org\/GLM-Image\): stages 0 llm → latent, 1 diffusion → image\. They differ: stage 1 is llm in boot 1, diffusion in boot 2\. /,
  );
});

test('boots that print no model are told apart by their stages; a third boot joins the pipeline it repeats', () => {
  const analysis = analysedStream(logOf(bootLines(null), OMNI, bootLines(null), TTS, bootLines(null), OMNI));
  const finding = analysis.snapshot().findings.find((f) => f.code === 'boots-differ-in-pipeline');
  assert.ok(finding !== undefined);
  assert.match(
    finding.message,
    /^The server boots in this log served 2 different pipelines: boots 1 and 3 \(6 requests\): stages 0 llm → text, 1 llm → latent, 2 llm → audio; boot 2 \(6 requests\): stages 0 llm → latent, 1 llm → audio\. /,
  );
  assert.match(finding.message, /--boot 1 or 2 /);
});

test('boots with the same stages and different models differ; a boot without a model line is not compared by model', () => {
  const other = 'Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice';
  const differ = analysedStream(logOf(bootLines(TTS_MODEL), TTS, bootLines(other), TTS_BEFORE_FIX));
  const finding = differ.snapshot().findings.find((f) => f.code === 'boots-differ-in-pipeline');
  assert.match(finding?.message ?? '', /Their stages look alike, their models differ\./);
  const unnamed = analysedStream(logOf(bootLines(TTS_MODEL), TTS, bootLines(null), TTS_BEFORE_FIX)).snapshot();
  assert.equal(
    unnamed.findings.find((f) => f.code === 'boots-differ-in-pipeline'),
    undefined,
  );
});

test('with a boot selected, only its requests are analysed and its own model names the stages', () => {
  const log = logOf(bootLines(TTS_MODEL), TTS, bootLines(OMNI_MODEL), OMNI);
  const analysis = new StreamAnalysis({ boot: 2 });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(log));
  analysis.ingest(parser.end());
  analysis.flush();
  const snapshot = analysis.snapshot();
  assert.equal(snapshot.requestCount, 3);
  assert.deepEqual(
    snapshot.stages.map((s) => s.stageId),
    [0, 1, 2],
  );
  assert.deepEqual(analysis.bootCounts(), {
    boot: 2,
    outside: 6,
    boots: [
      { boot: 1, requests: 6 },
      { boot: 2, requests: 3 },
    ],
  });
  assert.deepEqual(analysis.stageRoles(), { '0': 'thinker', '1': 'talker', '2': 'code2wav' });
  assert.equal(
    snapshot.findings.find((f) => f.code === 'boots-differ-in-pipeline'),
    undefined,
  );
});
