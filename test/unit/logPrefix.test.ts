// The prefix reader remembers the heads of recent prefixes (process, level, timestamp) and
// then reads only the call site of a line that starts with one. It must read every line
// exactly as parsePrefix does, whatever came before it.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PrefixReader, parsePrefix, stripAnsi } from '../../server/core/log/prefix';
import { FIXTURES, realLog } from './logSupport';

const HEAD = '(APIServer pid=7) INFO 08-21 18:00:00 ';
const crafted = [
  `${HEAD}[stats.py:600] first`,
  `${HEAD}[stats.py:640] another call site, same head`,
  `${HEAD}[stats.py:640]`,
  `${HEAD}[stats.py:abc] not a line number: the whole line is searched`,
  `${HEAD}[stats.py:640]x no space after the call site`,
  `${HEAD}[stats.py:6400000000000] too long a line number`,
  `${HEAD}[] empty call site`,
  `${HEAD}stats.py:640] no bracket`,
  `${HEAD}[stats.py:640] ${HEAD}[stats.py:641] a prefix inside the message`,
  `(APIServer pid=7) DEBUG 08-21 18:00:00 [stats.py:672] other level`,
  `(APIServer pid=7) INFO 08-21 18:00:01 [stats.py:600] next second`,
  `(API (0)) [Stage-1] WARNING 08-21 18:00:01 [omni_stage.py:12] nested parentheses and a stage`,
  `[Stage-0] ERROR 08-21 18:00:01 [vllm_omni/metrics/stats.py:601] stage prefix only`,
  `INFO 08-21 18:00:01 [omni.py:463] no process`,
  `Processed prompts: 100%|██| 1/1 [00:01<00:00]INFO 08-21 18:00:02 [stats.py:600] glued after tqdm`,
  `Processed prompts: 100%|██| 1/1 [00:01<00:00](APIServer pid=7) INFO 08-21 18:00:02 [stats.py:600] glued, with process`,
  `(1bad) INFO 08-21 18:00:02 [stats.py:600] process not starting with a letter`,
  `${HEAD.replace('INFO', 'INF0')}[stats.py:600] bad level`,
  `${HEAD.replace('18:00:00', '18:0:00')}[stats.py:600] bad timestamp`,
  `| a table row without a prefix |`,
  ``,
];

function realLines(): string[] {
  const lines: string[] = [];
  for (const name of readdirSync(join(FIXTURES, 'real-logs')).sort()) {
    for (const raw of realLog(name).split('\n')) lines.push(stripAnsi(raw.replace(/\r/g, ''), true));
  }
  return lines;
}

test('PrefixReader reads every line as parsePrefix does: crafted heads and call sites, then all real excerpts, twice', () => {
  const interned = new Map<string, string>();
  const reader = new PrefixReader((s) => {
    const known = interned.get(s);
    if (known !== undefined) return known;
    interned.set(s, s);
    return s;
  });
  const lines = [...crafted, ...crafted.slice().reverse(), ...realLines()];
  let withPrefix = 0;
  for (const pass of [1, 2]) {
    lines.forEach((line, i) => {
      const expected = parsePrefix(line);
      if (expected !== null) withPrefix++;
      assert.deepEqual(reader.parse(line), expected, `pass ${pass}, line ${i}: ${line.slice(0, 120)}`);
    });
  }
  assert.ok(withPrefix > 200, `${withPrefix} lines with a prefix were compared`);
});

test('PrefixReader: a line with a known head and a bad call site is searched like any other line', () => {
  const reader = new PrefixReader((s) => s);
  assert.equal(reader.parse(`${HEAD}[stats.py:600] x`)?.fileLine, 600);
  const glued = `${HEAD}[bad call site ${HEAD}[stats.py:601] message`;
  const read = reader.parse(glued);
  assert.deepEqual(read, parsePrefix(glued));
  assert.equal(read?.fileLine, 601);
  assert.equal(read?.headerStart, HEAD.length + 15);
});
