// ParseOutput.debugLines: whether the input has a line logged at DEBUG, which tells a server
// without --log-stats from one without the DEBUG level when a log has no stats tables. Read
// from the prefix of every kind of line, wherever the chunks split, and never from a message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import { parseLogText } from '../../server/core/log/logStreamParser';
import { fixtureLog, realLog, utf8 } from './support/logHelpers';

/** debugLines of the last output, the bytes split at `cut` (none: one chunk). */
function debugLinesOf(text: string, cut?: number): boolean {
  const bytes = utf8(text);
  const parser = new LogStreamParser();
  const outputs =
    cut === undefined ? [parser.push(bytes)] : [parser.push(bytes.subarray(0, cut)), parser.push(bytes.subarray(cut))];
  outputs.push(parser.end());
  return outputs[outputs.length - 1]?.debugLines === true;
}

const INFO = 'INFO 03-02 10:00:00 [api_server.py:1888] vLLM API server version 0.11.0\n';

test('a line at DEBUG in each prefix form sets it, at every split of the input', () => {
  const cases: Record<string, string> = {
    'real-logs 10': realLog('10-pr1463-debug-stage-prefix.log'),
    'DEBUG stats tables': fixtureLog('b7-examples-ansi.log'),
    'process and stage prefix': `${INFO}(Worker pid=9) [Stage-1] DEBUG 03-02 10:00:02 [v1/worker/gpu_model_runner.py:2444] Finish execute\n`,
    "Python's default format": `${INFO}DEBUG:vllm_omni.entrypoints.omni:generate() called\n`,
    'colored level': `${INFO}\x1b[37mDEBUG\x1b[0m 03-02 10:00:02 [omni.py:862] generate() called\r\n`,
    'after a CI timestamp': `${INFO}[2026-03-02T10:00:02Z] DEBUG 03-02 10:00:02 [omni.py:862] generate() called\n`,
    'glued after a progress bar': `${INFO}Processed prompts: 100%|##| 1/1 [00:01<00:00]DEBUG 03-02 10:00:02 [omni.py:862] generate() called\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    assert.equal(debugLinesOf(text), true, name);
    for (let cut = 1; cut < utf8(text).length; cut += 7)
      assert.equal(debugLinesOf(text, cut), true, `${name} cut at ${cut}`);
    assert.equal(parseLogText(text).debugLines, true, name);
  }
});

test('logs at INFO and above leave it unset, DEBUG in a message included', () => {
  const cases: Record<string, string> = {
    'real-logs 02 (INFO tables)': realLog('02-pr891-overall-apiserver-prefix.log'),
    'real-logs 09 (colored INFO)': realLog('09-pr517-vllm-loggers-ansi-prefix.log'),
    'real-logs 05 (INFO [OmniTiming])': realLog('05-pr3042-omnitiming-and-overall.log'),
    'DEBUG in messages': `${INFO}(APIServer pid=7) WARNING 03-02 10:00:02 [envs.py:12] set VLLM_LOGGING_LEVEL=DEBUG\nINFO:vllm_omni.omni:DEBUG tables are off\n| DEBUG 03-02 10:00:02 | pasted |\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    assert.equal(debugLinesOf(text), false, name);
    assert.equal(parseLogText(text).debugLines, false, name);
  }
});

test('once a DEBUG line is read, every later output says so (a live session reads it in any chunk)', () => {
  const parser = new LogStreamParser();
  assert.equal(parser.push(INFO).debugLines, false);
  assert.equal(parser.push('DEBUG 03-02 10:00:02 [omni.py:862] generate() called\n').debugLines, true);
  assert.equal(parser.push(INFO).debugLines, true);
  assert.equal(parser.end().debugLines, true);
});
