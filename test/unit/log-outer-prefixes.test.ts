// What other programs put before each line of a server's log: syslog's prefix when the log is read
// with `journalctl -u vllm > server.log` (`short`, `short-precise`, `short-iso`; moreutils' `ts`
// writes its time alone), and the kubelet's
// `<time> stdout F ` in a Kubernetes container's log file. The scanner reads vLLM's prefix after
// it, so every record is the plain log's, and table rows take the raw-prefix fast path; text that
// only looks like the start of one is not skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { journalPrefixEnd } from '../../server/core/log/journalPrefix';
import { criStreamEnd } from '../../server/core/log/criLogPrefix';
import { outerPrefixEnd, scanPrefix } from '../../server/core/log/prefix';
import { MAX_JOURNAL_FIELD } from '../../server/core/log/prefixLimits';
import { FIXTURES, parseChunks, parseBytes, utf8 } from './support/logHelpers';
import type { ParseOutput } from '../../server/core/records';

const HEAD = '(APIServer pid=7) INFO 08-21 18:00:00 [stats.py:12] ';

test("journalctl's and the kubelet's prefixes are skipped to the vLLM prefix; other text is not", () => {
  const shapes: [string, string][] = [
    ['short', 'Dec 07 07:49:02 gpu-host vllm[4001]: '],
    ['short, a day padded with a space', 'Dec  7 07:49:02 gpu-host vllm[4001]: '],
    ['short-precise', 'Dec 07 07:49:02.123456 gpu-host vllm[4001]: '],
    ['short-iso', '2026-12-07T07:49:02+0000 gpu-host vllm[4001]: '],
    ['an identifier without a pid', 'Aug 21 18:00:00 node-3.cluster.local python3: '],
    ["moreutils' ts: the time alone", 'Dec 07 07:49:02 '],
    ['the kubelet (containerd, CRI-O)', '2026-12-07T07:49:02.123456789Z stdout F '],
    ['the kubelet, stderr, a line the runtime split', '2026-12-07T07:49:02.123456789+08:00 stderr P '],
  ];
  for (const [name, prefix] of shapes) {
    assert.equal(outerPrefixEnd(prefix + HEAD, 0), prefix.length, name);
    assert.equal(scanPrefix(prefix + HEAD)?.headerStart, prefix.length, name);
    assert.equal(scanPrefix(prefix + HEAD)?.process, 'APIServer pid=7', name);
  }
  for (const line of [
    HEAD,
    `INFO 08-21 18:00:00 [stats.py:12] x`,
    `Dex 07 07:49:02 gpu-host vllm[4001]: ${HEAD}`,
    `Dec 07 7:49:02 gpu-host vllm[4001]: ${HEAD}`,
    `Dec 07 07:49:02.: ${HEAD}`,
    `Dec 07 07:49:02${HEAD}`,
  ])
    assert.equal(journalPrefixEnd(line, 0), 0, line.slice(0, 80));
  // A time, and no sender after it: the time alone is skipped (as `ts` writes it), the rest is the line.
  const time = 'Dec 07 07:49:02 ';
  for (const rest of [
    `gpu-host vllm[]: ${HEAD}`,
    `gpu-host vllm[4001]:${HEAD}`,
    `gpu-host [4001]: ${HEAD}`,
    `${'h'.repeat(MAX_JOURNAL_FIELD + 1)} vllm[4001]: ${HEAD}`,
    `host ${'v'.repeat(1_000_000)}`,
  ])
    assert.equal(journalPrefixEnd(time + rest, 0), time.length, rest.slice(0, 80));
  assert.equal(
    journalPrefixEnd(`${time}${'h'.repeat(MAX_JOURNAL_FIELD)} vllm[4001]: ${HEAD}`, 0),
    MAX_JOURNAL_FIELD + 29,
  );
  for (const line of [`stdout F${HEAD}`, `stdout X ${HEAD}`, `stdin F ${HEAD}`, `stdout  F ${HEAD}`, 'stdout F'])
    assert.equal(criStreamEnd(line, 0), 0, line);
  // Without the time before it, `stdout F ` is text.
  assert.equal(outerPrefixEnd(`stdout F ${HEAD}`, 0), 0);
});

/** The records of `text` without their line placement (the same lines, the same numbers). */
function records(output: ParseOutput): unknown {
  return JSON.parse(JSON.stringify(output.records));
}

test('a log read through journalctl or kept by the kubelet gives the plain log its records, from a string and from bytes', () => {
  const plain = readFileSync(join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'), 'utf8');
  const lines = plain.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const want = records(parseChunks([plain]));
  for (const prefix of [
    'Oct 19 07:12:05 gpu-host vllm[5151]: ',
    'Oct 19 07:12:05 ',
    '2026-10-19T07:12:05+0000 gpu-host vllm[5151]: ',
    '2026-10-19T07:12:05.123456789Z stdout F ',
  ]) {
    const journal = lines.map((l) => prefix + l).join('\n') + '\n';
    assert.deepEqual(records(parseChunks([journal])), want, prefix);
    assert.deepEqual(records(parseBytes(utf8(journal))), want, prefix);
    assert.deepEqual(parseChunks([journal]).problems, [], prefix);
  }
});
