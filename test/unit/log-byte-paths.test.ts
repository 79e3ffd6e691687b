// The parser's byte paths, taken only for lines of ASCII pieces (plain-number cells read
// inline, record starts read against the shapes of earlier prefixes), must read exactly
// what the string path reads: the same text pushed as a string never takes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanPrefix } from '../../server/core/log/prefix';
import { PrefixTemplates } from '../../server/core/log/prefixTemplates';
import type { LogHeader } from '../../server/core/records';
import { ofKind, parseBytes, parseChunks, prng, utf8 } from './support/logHelpers';

/** The same text as bytes (one chunk, and 4 KB chunks) and as a string: one output. */
function assertBytesReadAsText(text: string): void {
  assert.ok(/^[\x00-\x7f]*$/.test(text), 'ASCII: the byte paths apply');
  const fromString = parseChunks([text]);
  const bytes = utf8(text);
  assert.deepEqual(parseBytes(bytes), fromString);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 4096) chunks.push(bytes.subarray(i, i + 4096));
  assert.deepEqual(parseChunks(chunks), fromString);
}

/** A table as PrettyTable pads it: every column as wide as its widest cell, numbers right-aligned. */
function paddedTable(
  prefix: string,
  title: string,
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number))).join(' | ')} |`;
  const border = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const lines = ['', title, border, line(header), border, ...rows.map(line), border];
  return prefix + lines.join('\r\n' + prefix) + '\n';
}

test('plain-number cells: 3,000 seeded cells read from bytes as from text, near-misses included', () => {
  const rand = prng(11);
  const pieces = [
    '1',
    '0',
    '9',
    '42',
    '1,234',
    ',',
    '.',
    '-',
    ' ',
    '5',
    '.125',
    '(n=3)',
    ' (n=7)',
    'None',
    'x',
    'e5',
    '1234567890',
    '00',
  ];
  const cell = (): string => {
    let s = '';
    const parts = 1 + Math.floor(rand() * 4);
    for (let k = 0; k < parts; k++) s += pieces[Math.floor(rand() * pieces.length)] as string;
    return s.trim();
  };
  let text = '';
  for (let t = 0; t < 100; t++) {
    const rows = Array.from({ length: 10 }, (_, r) => [`field_${r}`, cell(), cell(), cell()]);
    text += paddedTable(
      `(APIServer pid=7) DEBUG 08-21 18:00:${String(t % 60).padStart(2, '0')} [stats.py:672] `,
      `[StageRequestStats [request_id=r${t}]]`,
      ['Field', '0', '1', '2'],
      rows,
    );
  }
  assertBytesReadAsText(text);
  // The cells that are plain numbers did read as numbers.
  const tables = ofKind(parseBytes(utf8(text)), 'stageTable');
  assert.equal(tables.length, 100);
  const numbers = tables
    .flatMap((t) => t.columns.flatMap((c) => Object.values(c.fields)))
    .filter((c) => c.state === 'measured' && c.sampleCount === undefined).length;
  assert.ok(numbers > 500, `${numbers} plain numbers`);
});

test('plain-number cells: more cells than columns, a cell against its bar, 16 digits, -0', () => {
  const prefix = '(APIServer pid=7) DEBUG 08-21 18:00:00 [stats.py:672] ';
  const rows = [
    '| a_ms |      1,234.5 |   -0 |      9 |',
    '| b_ms |1 |   2 |',
    '| c_ms |  1234567890123456 |   123456789012345 |',
    '| d_ms |   12.5 |   7 |   8 |   9 |',
    '| e_ms |   -.5 |   1,2 |',
  ];
  const text =
    [
      `${prefix}`,
      `${prefix}[StageRequestStats [request_id=r]]`,
      `${prefix}+------+----+----+`,
      `${prefix}| Field | 0 | 1 |`,
      `${prefix}+------+----+----+`,
      ...rows.map((r) => prefix + r),
      `${prefix}+------+----+----+`,
    ].join('\r\n') + '\n';
  assertBytesReadAsText(text);
  const fields = ofKind(parseBytes(utf8(text)), 'stageTable')[0]?.columns.map((c) => c.fields);
  assert.deepEqual(fields?.[0]?.['a_ms'], { state: 'measured', value: 1234.5 });
  assert.ok(Object.is((fields?.[1]?.['a_ms'] as { value: number }).value, -0));
  assert.deepEqual(fields?.[0]?.['b_ms'], { state: 'measured', value: 1 });
  assert.deepEqual(fields?.[1]?.['c_ms'], { state: 'measured', value: 123456789012345 });
  assert.deepEqual(fields?.[0]?.['e_ms'], { state: 'measured', value: -0.5 });
});

const HEAD = '(APIServer pid=4242) INFO ';

/** The header of a record start at `stats.py:123456789` (the most digits a line number may have). */
const NINE_DIGIT_CALL_SITE = {
  level: 'INFO',
  timestamp: '08-21 18:00:01',
  file: 'stats.py',
  fileLine: 123456789,
  process: 'APIServer pid=4242',
  stagePrefix: null,
};

/** After each prefix a stage table and an [OmniTiming] line of request `<idPrefix><i>`. */
function recordsAfter(starts: readonly string[], idPrefix: string): string[] {
  const records: string[] = [];
  for (const [i, start] of starts.entries()) {
    records.push(
      paddedTable(
        start,
        `[StageRequestStats [request_id=${idPrefix}${i}]]`,
        ['Field', '0'],
        [
          ['a_ms', `${i}.5`],
          ['b_ms', '2'],
        ],
      ),
    );
    records.push(`${start}[OmniTiming] req=${idPrefix}${i} total=1.00s engine=1.00s stages=[0:1.00s]\n`);
  }
  return records;
}

test('record starts: prefixes that differ from an earlier shape in one place read as the scanner reads them', () => {
  const starts = [
    `${HEAD}08-21 18:00:00 [stats.py:601] `,
    `${HEAD}08-21 18:00:00 [stats.py:640] `, // another call site
    `${HEAD}08-21 18:00:01 [stats.py:601] `, // another second
    `(APIServer pid=4243) INFO 08-21 18:00:01 [stats.py:601] `, // another process, one digit apart
    `${HEAD.replace('INFO', 'DEBUG')}08-21 18:00:01 [stats.py:672] `,
    `${HEAD}08-21 18:00:01 [stats.pz:601] `, // another file, one letter apart
    `${HEAD}08-21 18:00:01 [stats.py:0601] `,
    `${HEAD}08-21 18:00:01 [stats.py:123456789] `,
    `${HEAD}08-21 18:00:01 [stats.py:1234567890] `, // ten digits: no prefix
    `${HEAD}08-21 18:0a:01 [stats.py:601] `, // not a timestamp
    `${HEAD}08-21 18:00:01  [stats.py:601] `,
    `${HEAD}08-21 18:00:01 [stats.py:601]x `, // no space after the call site
    `${HEAD}08-21 18:00:01 [stats.py:]`,
    `(API (0)) [Stage-1] INFO 08-21 18:00:02 [omni_stage.py:88] `,
    `(API (0)) [Stage-2] INFO 08-21 18:00:02 [omni_stage.py:88] `,
    `INFO 08-21 18:00:02 [omni.py:7] `, // a head shorter than a word
    `(EngineCore_DP0 pid=9) WARNING 08-21 18:00:03 [a.py:1] `,
    `(EngineCore_DP0 pid=9) WARNING 08-21 18:00:03 [core.py:12] `,
    `${HEAD}08-21 18:00:04 [stats.py:601] `, // back to the first shape, after others pushed it out
    `[2026-01-22T14:19:11Z] ${HEAD}08-21 18:00:04 [stats.py:601] `, // a CI timestamp before the first shape
    `[2026-01-22T14:19:12Z] ${HEAD}08-21 18:00:04 [stats.py:601] `, // the CI second moves on
    `2026-01-22T14:19:12.1234567Z ${HEAD}08-21 18:00:05 [stats.py:601] `,
    `[2026-01-22T14:19:12Z]${HEAD}08-21 18:00:05 [stats.py:601] `, // no space after the stamp: not a stamp
    'DEBUG:vllm_omni.metrics.stats:', // Python's default format
    '[2026-01-22T14:19:13Z] INFO:vllm_omni.metrics.stats:',
  ];
  const tables = recordsAfter(starts, 'r');
  // The lead-in alone, ending at the call site's `]`.
  tables.push(
    `${HEAD}08-21 18:00:05 [stats.py:601]\n${HEAD}08-21 18:00:05 [stats.py:601] [RequestE2EStats [request_id=e]]\n`,
  );
  const text = tables.join('');
  assertBytesReadAsText(text);
  const out = parseBytes(utf8(text));
  // The valid prefixes gave tables with their headers; the ten-digit call site and the bad timestamp did not read as prefixes.
  const stage = ofKind(out, 'stageTable');
  assert.deepEqual(stage.find((t) => t.requestId === 'r7')?.header, NINE_DIGIT_CALL_SITE);
  assert.equal(stage.find((t) => t.requestId === 'r3')?.header?.process, 'APIServer pid=4243');
  assert.equal(stage.find((t) => t.requestId === 'r5')?.header?.file, 'stats.pz');
  assert.equal(stage.find((t) => t.requestId === 'r14')?.header?.stagePrefix, 2);
  // A CI timestamp is not part of the header; Python's default format has none to give.
  for (const id of ['r19', 'r20', 'r21']) {
    assert.deepEqual(
      stage.find((t) => t.requestId === id)?.header,
      {
        level: 'INFO',
        timestamp: id === 'r21' ? '08-21 18:00:05' : '08-21 18:00:04',
        file: 'stats.py',
        fileLine: 601,
        process: 'APIServer pid=4242',
        stagePrefix: null,
      },
      id,
    );
  }
  assert.equal(stage.find((t) => t.requestId === 'r23')?.header, null);
  assert.equal(stage.find((t) => t.requestId === 'r24')?.header, null);
  assert.equal(stage.find((t) => t.requestId === 'r24')?.columns[0]?.fields['a_ms']?.state, 'measured');
});

test('PrefixTemplates: a line matched against a learned shape gives what scanPrefix gives; anything else is left to it', () => {
  const templates = new PrefixTemplates();
  const learnFrom = (line: string): LogHeader => {
    const scanned = scanPrefix(line);
    assert.ok(scanned !== null);
    const { headerStart: _h, messageStart: _m, timestampStart: _t, ...header } = scanned;
    templates.learn(line, scanned, header);
    return header;
  };
  learnFrom(`${HEAD}08-21 18:00:00 [stats.py:601] [Overall Summary]`);
  learnFrom(`${HEAD.replace('INFO', 'DEBUG')}08-21 18:00:00 [stats.py:672] `);
  const rand = prng(3);
  const alphabet = ['0', '9', ' ', ']', ':', 'a', '[', '-'];
  let matched = 0;
  for (let n = 0; n < 4000; n++) {
    const bases = [
      `${HEAD}08-21 18:00:00 [stats.py:601] msg`,
      `${HEAD.replace('INFO', 'DEBUG')}08-21 18:00:00 [stats.py:672]`,
      `[2026-01-22T14:19:11Z] ${HEAD}08-21 18:00:00 [stats.py:601] msg`, // never a learned shape: left to the scanner
      'INFO:vllm_omni.metrics.stats:[OmniTiming] req=x',
    ];
    const base = bases[Math.floor(rand() * (rand() < 0.8 ? 2 : bases.length))] as string;
    const chars = [...base];
    const edits = Math.floor(rand() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(rand() * chars.length);
      const op = rand();
      const ch = alphabet[Math.floor(rand() * alphabet.length)] as string;
      if (op < 0.4) chars[at] = ch;
      else if (op < 0.7) chars.splice(at, 0, ch);
      else chars.splice(at, 1);
    }
    const line = chars.join('');
    const bytes = Buffer.from(`xx${line}\n`, 'latin1');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const src = bytes.toString('latin1');
    const got = templates.read(src, view, 2, 2 + line.length);
    if (got === null) continue;
    matched++;
    assert.deepEqual(got, scanPrefix(line), line);
    const { headerStart: _h, messageStart: _m, timestampStart: _t, ...header } = got;
    templates.confirm(header);
  }
  assert.ok(matched > 1000, `${matched} lines matched a shape`);
});

/** vLLM's logger on a terminal: codes around the process, the level, the time and the call site. */
const coloured = (process: string, level: string, time: string, site: string): string =>
  `\x1b[1;36m(${process})\x1b[0;0m \x1b[32m${level}\x1b[0m \x1b[90m${time} [${site}]\x1b[0m `;

test('coloured record starts and their tables: bytes read as the text, near-misses of the colour codes included', () => {
  const starts = [
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:00', 'stats.py:601'),
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:00', 'stats.py:640'), // another call site
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:01', 'stats.py:601'), // another second
    coloured('APIServer pid=4243', 'INFO', '08-21 18:00:01', 'stats.py:601'), // another process
    coloured('APIServer pid=4242', 'DEBUG', '08-21 18:00:01', 'vllm_omni/metrics/stats.py:672'),
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:01', 'stats.py:0601'),
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:01', 'stats.py:123456789'),
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:01', 'stats.py:1234567890'), // ten digits: no prefix
    coloured('APIServer pid=4242', 'INFO', '08-21 18:0a:01', 'stats.py:601'), // not a timestamp
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:02', 'stats.py:601').replace('\x1b[0m ', '\x1b[0m'), // no space before the message
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:02', 'stats.py:601').replace('[90m', '[9'), // a code cut short
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:02', 'stats.py:601').replace('\x1b[0m ', '\x1b[0'), // a code left open before the message
    `\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:03 [omni.py:463]\x1b[0m `, // no process
    coloured('APIServer pid=4242', 'INFO', '08-21 18:00:04', 'stats.py:601'), // the first prefix again, after others
    `${coloured('APIServer pid=4242', 'INFO', '08-21 18:00:04', 'stats.py:601')}\x1b[1m`, // a code in the message
  ];
  const text = recordsAfter(starts, 'c').join('');
  assertBytesReadAsText(text);
  const stage = ofKind(parseBytes(utf8(text)), 'stageTable');
  assert.deepEqual(stage.find((t) => t.requestId === 'c6')?.header, NINE_DIGIT_CALL_SITE);
  assert.equal(stage.find((t) => t.requestId === 'c4')?.header?.file, 'vllm_omni/metrics/stats.py');
  assert.equal(stage.find((t) => t.requestId === 'c13')?.header?.timestamp, '08-21 18:00:04');
});
