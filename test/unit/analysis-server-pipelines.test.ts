// servers-differ-in-pipeline: a log that merges the lines of servers of different pipelines (a
// docker compose of a Qwen3-TTS service and a Qwen3-Omni one) pools "stage 0" of a talker and of a
// thinker in one row; the analysis says so, with each server's pipeline and the --server to read.
// Replicas of one pipeline, one server picked, and a log of one server say nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { FIXTURES } from './support/logHelpers';

const RENDERED = join(FIXTURES, 'upstream-rendered');
const TTS = 'qwen3tts-talker-first-audio-after-fix.log';
const OMNI = 'qwen3-omni-three-stage-transfers.log';

/** The start lines of a server serving `model`. */
function startLines(model: string): string[] {
  const p = '(APIServer pid=7001) INFO 10-19 07:00:00';
  return [
    `${p} [entrypoints/openai/api_server.py:1805] vLLM API server version 0.11.0`,
    `${p} [entrypoints/utils.py:326] non-default args: {'model_tag': '${model}', 'model': '${model}', 'omni': True, 'log_stats': True}`,
  ];
}

/** Two servers' logs interleaved line by line, each tagged as `docker compose logs` tags it. */
function composeLog(servers: readonly { name: string; fixture: string; model?: string }[]): Uint8Array {
  const logs = servers.map((s) => [
    ...(s.model === undefined ? [] : startLines(s.model)),
    ...readFileSync(join(RENDERED, s.fixture), 'utf8')
      .split('\n')
      .filter((l) => l !== ''),
  ]);
  const out: string[] = [];
  for (let i = 0; i < Math.max(...logs.map((l) => l.length)); i++)
    logs.forEach((lines, k) => {
      const line = lines[i];
      if (line !== undefined) out.push(`${servers[k]?.name ?? ''}  | ${line}`);
    });
  return new TextEncoder().encode(`${out.join('\n')}\n`);
}

function analysed(bytes: Uint8Array, server?: string): StreamAnalysis {
  const analysis = new StreamAnalysis(server === undefined ? {} : { server });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(bytes));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis;
}

const mixedOf = (a: StreamAnalysis) => a.snapshot().findings.filter((f) => f.code === 'servers-differ-in-pipeline');

test('a TTS server and an Omni server in one merged log: servers-differ-in-pipeline names each pipeline and the --server to read', () => {
  const log = composeLog([
    { name: 'tts-1', fixture: TTS, model: 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice' },
    { name: 'omni-1', fixture: OMNI, model: 'Qwen/Qwen3-Omni-30B-A3B-Instruct' },
  ]);
  const analysis = analysed(log);
  const [finding, ...more] = mixedOf(analysis);
  assert.equal(more.length, 0);
  assert.equal(finding?.severity, 'warning');
  assert.equal(
    finding?.message,
    'The servers in this merged log served 2 different pipelines: ' +
      'server omni-1 (3 requests, Qwen/Qwen3-Omni-30B-A3B-Instruct): stages 0 llm → text, 1 llm → latent, 2 llm → audio; ' +
      'server tts-1 (6 requests, Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice): stages 0 llm → latent, 1 llm → audio. ' +
      'They differ: server omni-1 has stages 0, 1 and 2, server tts-1 stages 0 and 1; stage 0 outputs text in server omni-1, latent in server tts-1; ' +
      'stage 1 outputs latent in server omni-1, audio in server tts-1. ' +
      "The per-stage rows pool each stage id over every server, so a stage's percentiles mix different stages (and models) and describe none of them. " +
      'Read one server at a time: stage-lens analyze --server omni-1 or tts-1 (explain takes --server too).',
  );
  // The live summary says it too.
  assert.equal(analysis.summary().findings.filter((f) => f.code === 'servers-differ-in-pipeline').length, 1);
  // One server picked: its own pipeline, nothing pooled.
  assert.deepEqual(mixedOf(analysed(log, 'omni-1')), []);
  // Each server's boot 1 is named by its own start lines, not by the other's (the Boot pick's and compare's words).
  assert.equal(analysis.serverBootModel('tts-1', 1, false), 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice');
  assert.equal(analysis.serverBootModel('omni-1', 1, false), 'Qwen/Qwen3-Omni-30B-A3B-Instruct');
  assert.equal(analysis.serverBootModel('none', 1, false), null);
  for (const [server, model] of [
    ['tts-1', 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice'],
    ['omni-1', 'Qwen/Qwen3-Omni-30B-A3B-Instruct'],
  ] as const) {
    const reader = new LogRunReader(false, null, server);
    reader.push(log);
    reader.end();
    assert.deepEqual(reader.boots(), [{ boot: 1, requests: server === 'tts-1' ? 6 : 3, model }]);
  }
});

test('two replicas of one pipeline (before and after a fix), and a log of one server: no servers-differ-in-pipeline', () => {
  const replicas = composeLog([
    { name: 'tts-1', fixture: TTS },
    { name: 'tts-2', fixture: 'qwen3tts-talker-first-audio-before-fix.log' },
  ]);
  assert.equal(analysed(replicas).snapshot().servers?.length, 2);
  assert.deepEqual(mixedOf(analysed(replicas)), []);
  assert.deepEqual(mixedOf(analysed(readFileSync(join(RENDERED, OMNI)))), []);
});
