// `stageLens/compare` through the language server (dist/server.js over stdio), the Compare
// panel's feed, where the baseline is an imported session of one request
// (test/fixtures/logs/qwen3tts-one-request.log: code2wav serving_time_to_first_output_ms
// 3,996.500) and the candidate a log of six on disk: the baseline has no tail, its one request
// comes with its value under tail.oneRequest, and the candidate's tail stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const ONE = path.join(ROOT, 'test', 'fixtures', 'logs', 'qwen3tts-one-request.log');
const SIX = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const SLOW = 'speech-628f17161fc5a104a9aeb486cbfaa141';
const storage = storageForFile('stage-lens-compare-one-');

test(
  'an imported session of one request against a log of six: no tail in the baseline, its request and value instead',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(ONE);
    const { report } = await lsp.request('stageLens/compare', {
      baseline: { sessionId: session.id },
      candidate: { path: SIX },
    });
    const tail = report.tail;
    assert.equal(tail?.target, 'stage1.firstOutput');
    assert.equal(tail?.baseline, null);
    assert.deepEqual(tail?.oneRequest, {
      baseline: { target: 'stage1.firstOutput', requestId: SLOW, valueMs: 3996.5 },
      candidate: null,
    });
    assert.equal(tail?.candidate?.scopeCount, 6);
    assert.equal(
      tail?.sentence,
      'the p99 excess of time to first audio (stage 1 · code2wav): +3.90 s over the median in the candidate, most in stage 0 · talker prefill+decode (one output) (+3.90 s); the baseline has no tail, only one request measured it.',
    );
  },
);
