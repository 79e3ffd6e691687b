// The log prefix scanner (the common case: a prefix at the start of the line) must read
// exactly what the regular-expression search reads, on every real line and on crafted
// heads and call sites.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePrefix, scanPrefix, searchPrefix, stripAnsi } from '../../server/core/log/prefix';
import { FIXTURES, fixtureLog, prng, realLog } from './support/logHelpers';

const HEAD = '(APIServer pid=7) INFO 08-21 18:00:00 ';

function realLines(): string[] {
  const lines: string[] = [];
  const texts = [
    ...readdirSync(join(FIXTURES, 'real-logs'))
      .sort()
      .map((name) => realLog(name)),
    ...readdirSync(join(FIXTURES, 'logs'))
      .filter((name) => name.endsWith('.log'))
      .sort()
      .map((name) => fixtureLog(name)),
  ];
  for (const text of texts) for (const raw of text.split('\n')) lines.push(stripAnsi(raw.replace(/\r/g, ''), true));
  return lines;
}

test('the scanner reads every line of the real excerpts and the fixture logs as the regular expression does', () => {
  let compared = 0;
  for (const line of realLines()) {
    const scanned = scanPrefix(line);
    if (scanned === null) continue;
    compared++;
    const { timestampStart, ...read } = scanned;
    assert.deepEqual(read, searchPrefix(line), line.slice(0, 160));
    // What precedes the timestamp is the head prefixTemplates.ts compares.
    assert.equal(line.slice(timestampStart, timestampStart + 14), scanned.timestamp);
    assert.deepEqual(parsePrefix(line), scanned);
  }
  assert.ok(compared > 250, `${compared} lines compared`);
});

test('heads and call sites: what the scanner takes, and what it leaves to the search', () => {
  const cases: Array<
    [
      string,
      {
        process: string | null;
        stagePrefix: number | null;
        level: string;
        file: string;
        fileLine: number;
        message: string;
      } | null,
    ]
  > = [
    [
      `${HEAD}[stats.py:600] first`,
      {
        process: 'APIServer pid=7',
        stagePrefix: null,
        level: 'INFO',
        file: 'stats.py',
        fileLine: 600,
        message: 'first',
      },
    ],
    [
      `${HEAD}[stats.py:640]`,
      { process: 'APIServer pid=7', stagePrefix: null, level: 'INFO', file: 'stats.py', fileLine: 640, message: '' },
    ],
    [
      `${HEAD}[vllm_omni/metrics/stats.py:0012] x`,
      {
        process: 'APIServer pid=7',
        stagePrefix: null,
        level: 'INFO',
        file: 'vllm_omni/metrics/stats.py',
        fileLine: 12,
        message: 'x',
      },
    ],
    [
      `(API (0)) [Stage-12] WARNING 08-21 18:00:01 [omni_stage.py:7] m`,
      { process: 'API (0)', stagePrefix: 12, level: 'WARNING', file: 'omni_stage.py', fileLine: 7, message: 'm' },
    ],
    [
      `[Stage-0] ERROR 08-21 18:00:01 [a:b.py:9] m`,
      { process: null, stagePrefix: 0, level: 'ERROR', file: 'a:b.py', fileLine: 9, message: 'm' },
    ],
    [
      `CRITICAL 08-21 18:00:01 [omni.py:463] no process`,
      { process: null, stagePrefix: null, level: 'CRITICAL', file: 'omni.py', fileLine: 463, message: 'no process' },
    ],
    [`${HEAD}[stats.py:abc] not a line number`, null],
    [`${HEAD}[stats.py:] no digits`, null],
    [`${HEAD}[:12] no file`, null],
    [`${HEAD}[stats.py:1234567890] ten digits`, null],
    [`${HEAD}[sta ts.py:12] space in the file`, null],
    [`${HEAD}[stats.py:640]x no space after the call site`, null],
    [`${HEAD.replace('INFO', 'INF0')}[stats.py:600] bad level`, null],
    [`${HEAD.replace('18:00:00', '18:0:00')}[stats.py:600] bad timestamp`, null],
    [`(1bad) INFO 08-21 18:00:02 [stats.py:600] process not starting with a letter`, null],
    [`(unclosed INFO 08-21 18:00:02 [stats.py:600] m`, null],
  ];
  for (const [line, want] of cases) {
    const got = parsePrefix(line);
    if (want === null) {
      assert.ok(got === null || got.headerStart > 0 || got.process !== want, `not read as a prefix at 0: ${line}`);
      assert.deepEqual(got, searchPrefix(line), `left to the search: ${line}`);
      continue;
    }
    assert.ok(got !== null, line);
    assert.deepEqual(
      {
        process: got.process,
        stagePrefix: got.stagePrefix,
        level: got.level,
        file: got.file,
        fileLine: got.fileLine,
        message: line.slice(got.messageStart),
      },
      want,
      line,
    );
    assert.equal(got.headerStart, 0);
  }
});

test('stripAnsi removes exactly what /\\x1b\\[[0-9;]*m/g matches, on real colour codes and malformed ones', () => {
  const rand = prng(5);
  const pieces = [
    '\x1b[0m',
    '\x1b[1;36m',
    '\x1b[32m',
    '\x1b[',
    '\x1b',
    '\x1b[12',
    '\x1b[1;2x',
    '\x1b[m',
    '\x1b\x1b[0m',
    'm',
    ';',
    '[',
    'INFO ',
    '08-21 ',
    'text',
    '\x1b[0;',
    '\x1b[33mm',
  ];
  for (let n = 0; n < 3000; n++) {
    let line = '';
    const parts = Math.floor(rand() * 8);
    for (let k = 0; k < parts; k++) line += pieces[Math.floor(rand() * pieces.length)] as string;
    assert.equal(stripAnsi(line, false), line.replace(/\x1b\[[0-9;]*m/g, ''), JSON.stringify(line));
  }
  assert.equal(stripAnsi('\x1b[1;36m(APIServer pid=1)\x1b[0m INFO', false), '(APIServer pid=1) INFO');
});
