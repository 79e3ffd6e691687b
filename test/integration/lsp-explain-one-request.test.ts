// A target that only one request measured, over a real connection (dist/server.js, a child
// process on stdio): stageLens/tailAttribution answers it under `oneRequest` with the request
// and its value, as `stage-lens explain --format json` does, never as a tail of +0 ms parts.
// Logs: one request of vLLM-Omni's own stats output (Qwen3-TTS, talker -> code2wav; cut from
// test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log), and the
// reference examples' TTS + diffusion log, where only the TTS request measures time to first
// audio but both measure stage 0's first output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import type { ExplainReport } from '../../server/core/explain/explainReport';

const ROOT = path.resolve(__dirname, '..', '..');
const LOGS = path.join(ROOT, 'test/fixtures/logs');
const ONE = path.join(LOGS, 'qwen3tts-one-request.log');
const MIXED = path.join(LOGS, 'b7-examples-plain.log');
const AFTER_FIX = path.join(ROOT, 'test/fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log');
/** The one request: e2e_total_ms 4,471.914; code2wav's serving_time_to_first_output_ms 3,996.500. */
const SLOW = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const storage = storageForFile('stage-lens-lsp-one-request-');

async function imported(lsp: LspProcess, log: string): Promise<string> {
  const session = await lsp.importLog(log);
  return session.id;
}

function explainJson(log: string, ...args: string[]): ExplainReport {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'dist', 'cli.js'), 'explain', log, '--format', 'json', ...args],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as ExplainReport;
}

test('a log of one request: every target is answered as one request with its value, none as a tail', async () => {
  const lsp = await startLanguageServer(storage);
  const sessionId = await imported(lsp, ONE);
  const main = await lsp.request('stageLens/tailAttribution', { sessionId });
  assert.equal(main.mainTarget, 'stage1.firstOutput');
  assert.deepEqual(main.tails, []);
  assert.deepEqual(main.oneRequest, [{ target: 'stage1.firstOutput', requestId: SLOW, valueMs: 3996.5 }]);
  const e2e = await lsp.request('stageLens/tailAttribution', { sessionId, target: 'e2e', quantile: 'p95' });
  assert.deepEqual(e2e.tails, []);
  assert.deepEqual(e2e.oneRequest, [{ target: 'e2e', requestId: SLOW, valueMs: 4471.914 }]);
  // Per boot: the boot is named, as explain --by-boot names it.
  const byBoot = await lsp.request('stageLens/tailAttribution', { sessionId, target: 'e2e', byBoot: true });
  assert.deepEqual(byBoot.tails, []);
  assert.deepEqual(
    byBoot.oneRequest,
    explainJson(ONE, '--by-boot').oneRequest.filter((o) => o.target === 'e2e'),
  );
  assert.deepEqual(byBoot.oneRequest, [{ target: 'e2e', boot: 0, requestId: SLOW, valueMs: 4471.914 }]);
  // The same answer as the CLI, target by target.
  const cli = explainJson(ONE);
  for (const target of main.targets) {
    const answer = await lsp.request('stageLens/tailAttribution', { sessionId, target });
    assert.deepEqual(
      answer.oneRequest,
      cli.oneRequest.filter((o) => o.target === target),
      target,
    );
  }
});

test('a log where time to first audio has one request and stage 0 first output two: one answer of each kind', async () => {
  const lsp = await startLanguageServer(storage);
  const sessionId = await imported(lsp, MIXED);
  const main = await lsp.request('stageLens/tailAttribution', { sessionId });
  assert.equal(main.mainTarget, 'stage1.firstOutput');
  assert.deepEqual(main.tails, []);
  // The TTS request's code2wav serving_time_to_first_output_ms: 142.605.
  assert.deepEqual(main.oneRequest, [
    { target: 'stage1.firstOutput', requestId: 'speech-5d0c9a7e2b4f4c1d', valueMs: 142.605 },
  ]);
  const stage0 = await lsp.request('stageLens/tailAttribution', { sessionId, target: 'stage0.firstOutput' });
  assert.deepEqual(stage0.oneRequest, []);
  assert.deepEqual(
    stage0.tails.map((t) => [t.scopeCount, t.requestIds]),
    [[2, ['chatcmpl-7b2e41f0c9d84a55']]],
  );
});

test('a tailed log: the one request becomes a tail once a second request measures the target', async () => {
  const lsp = await startLanguageServer(storage);
  const file = path.join(storage, 'server.log');
  fs.writeFileSync(file, fs.readFileSync(ONE));
  const session = await lsp.request('stageLens/tail', { path: file, fromStart: true });
  await lsp.requestsRead(session.id, 1);
  const first = await lsp.request('stageLens/tailAttribution', { sessionId: session.id });
  assert.deepEqual(first.tails, []);
  assert.deepEqual(first.oneRequest, [{ target: 'stage1.firstOutput', requestId: SLOW, valueMs: 3996.5 }]);
  // The next request of the same log (2,046.939 ms end to end; code2wav first output 99.845 ms).
  const next = fs.readFileSync(AFTER_FIX, 'utf8').split('\n').slice(98, 149).join('\n');
  fs.appendFileSync(file, `${next}\n`);
  await lsp.requestsRead(session.id, 2);
  const second = await lsp.request('stageLens/tailAttribution', { sessionId: session.id });
  assert.deepEqual(second.oneRequest, []);
  assert.deepEqual(
    second.tails.map((t) => [t.target, t.scopeCount, t.requestIds]),
    [['stage1.firstOutput', 2, [SLOW]]],
  );
});
