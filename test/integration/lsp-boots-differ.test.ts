// A log of two server boots that served different pipelines (the upstream-rendered Qwen3-TTS log,
// then the Qwen3-Omni one, each after the lines a server prints at start), imported through the
// language server (dist/server.js over stdio): the session's summary, whole and over a window of
// its stored requests, carries the boots-differ-in-pipeline warning the views list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const RENDERED = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const storage = storageForFile('stage-lens-boots-differ-');

function bootLines(model: string): string {
  const p = '(APIServer pid=7001) INFO 10-19 07:00:00';
  return (
    `${p} [entrypoints/openai/api_server.py:1805] vLLM API server version 0.11.0\n` +
    `${p} [entrypoints/utils.py:326] non-default args: {'model_tag': '${model}', 'model': '${model}', 'omni': True, 'log_stats': True}\n`
  );
}

test(
  'an imported log of two pipelines: boots-differ-in-pipeline in the summary and in a window of it',
  { timeout: 60_000 },
  async () => {
    const log = path.join(storage, 'restarts.log');
    const fixture = (name: string): string => fs.readFileSync(path.join(RENDERED, name), 'utf8');
    fs.writeFileSync(
      log,
      bootLines('Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice') +
        fixture('qwen3tts-talker-first-audio-after-fix.log') +
        bootLines('Qwen/Qwen3-Omni-30B-A3B-Instruct') +
        fixture('qwen3-omni-three-stage-transfers.log'),
    );
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    // The whole session (its live findings), then a window over its stored requests (findings made again from the store).
    for (const windowSeconds of [undefined, 3600]) {
      const summary = await lsp.request('stageLens/summary', {
        sessionId: session.id,
        ...(windowSeconds === undefined ? {} : { windowSeconds }),
      });
      assert.equal(summary.requestCount, 9);
      const f = summary.findings.find((x) => x.code === 'boots-differ-in-pipeline');
      assert.ok(f !== undefined, summary.findings.map((x) => x.code).join(' '));
      assert.equal(f.severity, 'warning');
      assert.equal(f.requestCount, 0);
      assert.match(
        f.message,
        /^The server boots in this log served 2 different pipelines: boot 1 \(6 requests, Qwen\/Qwen3-TTS-12Hz-1\.7B-CustomVoice\): stages 0 llm → latent, 1 llm → audio; boot 2 \(3 requests, Qwen\/Qwen3-Omni-30B-A3B-Instruct\)/,
      );
    }
  },
);
