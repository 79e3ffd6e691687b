// ParseOutput.firstLogTime: the log time of the input's first line with a log prefix, whatever
// that line says (a record or not), which a --since/--until window is placed by in a log whose
// requests give no time. The same wherever the chunks split; absent in a log without a prefix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LogStreamParser } from '../../server/core/log';
import { parseLogText } from '../../server/core/log/logStreamParser';
import { realLog, utf8 } from './support/logHelpers';

/** firstLogTime of the last output, the bytes split at `cut` (none: one chunk). */
function firstLogTimeOf(text: string, cut?: number): string | undefined {
  const bytes = utf8(text);
  const parser = new LogStreamParser();
  const outputs =
    cut === undefined ? [parser.push(bytes)] : [parser.push(bytes.subarray(0, cut)), parser.push(bytes.subarray(cut))];
  outputs.push(parser.end());
  return outputs[outputs.length - 1]?.firstLogTime;
}

const START = '(APIServer pid=7) INFO 03-02 09:59:58 [api_server.py:1888] vLLM API server version 0.11.0\n';

test("the first prefixed line's time, a record's or not, at every split of the input", () => {
  const cases: Record<string, [string, string]> = {
    'real-logs 09 (colored Engine lines)': [realLog('09-pr517-vllm-loggers-ansi-prefix.log'), '11-28 14:29:49'],
    'a start-up line before a stats line': [
      `${START}(APIServer pid=7) INFO 03-02 10:00:05 [loggers.py:127] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%\n`,
      '03-02 09:59:58',
    ],
    'after lines without a prefix and a CI timestamp': [
      `Loading weights\n[2026-03-02T10:00:02Z] WARNING 03-02 10:00:02 [envs.py:12] unset\n${START}`,
      '03-02 10:00:02',
    ],
  };
  for (const [name, [text, time]] of Object.entries(cases)) {
    assert.equal(firstLogTimeOf(text), time, name);
    for (let cut = 1; cut < utf8(text).length; cut += 7)
      assert.equal(firstLogTimeOf(text, cut), time, `${name} cut at ${cut}`);
    assert.equal(parseLogText(text).firstLogTime, time, name);
  }
});

test('a log without a prefixed line has none; once read, every later output has it', () => {
  const bare = realLog('13-docs-contributing-metrics-example-tables.log');
  assert.equal(firstLogTimeOf(bare), undefined);
  assert.equal(parseLogText(bare).firstLogTime, undefined);
  const parser = new LogStreamParser();
  assert.equal(parser.push('Loading weights\n').firstLogTime, undefined);
  assert.equal(parser.push(START).firstLogTime, '03-02 09:59:58');
  assert.equal(parser.push(START.replace('09:59:58', '10:00:09')).firstLogTime, '03-02 09:59:58');
  assert.equal(parser.end().firstLogTime, '03-02 09:59:58');
});
