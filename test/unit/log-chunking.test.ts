// Chunk boundaries never matter: the bytes split at every position (inside UTF-8
// sequences, inside `\r\n`, inside ANSI escapes) and in random chunk sizes give exactly the
// records and problems of one chunk.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ParseOutput } from '../../server/core/records';
import { DECODE_PIECE_BYTES, LineSplitter, MIXED_PART_BYTES } from '../../server/core/log/lines';
import { FIXTURES, fixtureLog, parseBytes, parseChunks, prng, realLog, utf8 } from './support/logHelpers';

/** A few lines that exercise multi-byte characters, stray CRs and colours around a table. */
const CRAFTED =
  'Processed prompts: 100%|\u2588\u2588\u2588\u2588| 1/1 [00:01<00:00, 1.00s/it]\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m \r\n' +
  '\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m [StageRequestStats [request_id=r-\u00e9\u4e2d\ud83d\ude00]]\r\n' +
  '\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m +-------+---------+\r\n' +
  '\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m | Field |       0 |\r\n' +
  '\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m +-------+---------+\r\n' +
  'tqdm \u2588\u2588\r progress\r\n' +
  '\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m | a_ms  | 1,234.5 |\r\n' +
  '\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m | kind  |   \u00e9t\u00e9 |\r\n' +
  '\x1b[32mINFO\x1b[0m \x1b[90m08-21 18:00:00 [stats.py:612]\x1b[0m +-------+---------+\n' +
  '(APIServer pid=1) INFO 08-21 18:00:01 [stats.py:655] [OmniTiming] req=r-\u00e9 total=1.00s engine=1.00s stages=[0:1.00s]\n' +
  '\xff\xfe not utf-8 \ud83d\n';

function inputs(): Array<{ name: string; bytes: Uint8Array }> {
  const real = [
    '04-pr1977-diffusion-overall-glued-to-tqdm.log',
    '08-pr500-legacy-omni-summary.log',
    '09-pr517-vllm-loggers-ansi-prefix.log',
    '13-docs-contributing-metrics-example-tables.log',
    '15-timez-zx-parser-test-fixture-SYNTHETIC.log',
  ];
  const bad = new Uint8Array([...utf8(CRAFTED), 0xe2, 0x96, 0x0a, 0xc3]); // a cut 3-byte sequence, a lone lead byte at the end
  return [
    { name: 'b7-examples-ansi.log', bytes: utf8(fixtureLog('b7-examples-ansi.log')) },
    { name: 'phase-split-none-duplex.log', bytes: utf8(fixtureLog('phase-split-none-duplex.log')) },
    { name: 'crafted multi-byte/CR/ANSI/invalid UTF-8', bytes: bad },
    ...real.map((name) => ({ name, bytes: utf8(realLog(name)) })),
  ];
}

function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

function assertSame(actual: ParseOutput, expected: ParseOutput, how: string): void {
  assert.deepStrictEqual(actual, expected, how);
}

for (const { name, bytes } of inputs()) {
  test(`${name}: split at every byte position gives the same output as one chunk`, () => {
    const whole = parseBytes(bytes);
    assert.ok(whole.records.length > 0, 'the input has records');
    for (let i = 0; i <= bytes.length; i++) assertSame(parseChunks(splitAt(bytes, [i])), whole, `split at byte ${i}`);
  });
}

test('random chunk sizes (1-97 bytes, also empty chunks), seeded', () => {
  const random = prng(20260821);
  for (const { name, bytes } of inputs()) {
    const whole = parseBytes(bytes);
    for (let round = 0; round < 40; round++) {
      const cuts: number[] = [];
      for (let at = 0; at < bytes.length;) {
        at += Math.floor(random() * 98);
        if (at < bytes.length) cuts.push(at);
      }
      assertSame(parseChunks(splitAt(bytes, cuts)), whole, `${name}, round ${round}`);
    }
  }
});

test('text chunks split at every character (including inside a surrogate pair) give the same output', () => {
  const text = fixtureLog('b7-examples-ansi.log') + CRAFTED;
  const whole = parseChunks([text]);
  for (let i = 0; i <= text.length; i++)
    assertSame(parseChunks([text.slice(0, i), text.slice(i)]), whole, `split at char ${i}`);
});

/** Every real excerpt, in name order, one after the other. */
function allRealLogs(): string {
  return readdirSync(join(FIXTURES, 'real-logs'))
    .sort()
    .map((f) => realLog(f))
    .join('\n');
}

test('all real excerpts, concatenated, in 1-byte chunks give the same output as one chunk', () => {
  const bytes = utf8(allRealLogs());
  const whole = parseBytes(bytes);
  const ones: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i++) ones.push(bytes.subarray(i, i + 1));
  assertSame(parseChunks(ones), whole, '1-byte chunks');
});

test('"\\r\\n" and "\\n" line ends give the same records', () => {
  const crlf = fixtureLog('b7-examples-plain.log');
  assert.ok(crlf.includes('\r\n'));
  assertSame(parseChunks([crlf.replace(/\r\n/g, '\n')]), parseChunks([crlf]), 'LF only');
});

test('one chunk larger than the 64 KB decode piece: characters cut by a piece boundary give the output of the same text pushed as a string', () => {
  const body = allRealLogs();
  const craftedValid = CRAFTED.slice(0, CRAFTED.lastIndexOf('\xff'));
  const PIECE = 1 << 16;
  for (let shift = 0; shift <= 4; shift++) {
    // '€' (3 bytes) and '😀' (4 bytes) straddle the first piece boundary at every offset.
    const lead = 'x'.repeat(PIECE - 2 - shift) + '\u20ac\ud83d\ude00\u00e9\n';
    let text = lead;
    while (utf8(text).length < 3 * PIECE + 1000) text += body + '\n' + craftedValid;
    const bytes = utf8(text);
    const asString = parseChunks([text]);
    assert.ok(asString.records.length > 20, 'the input has records');
    assertSame(parseBytes(bytes), asString, `shift ${shift}: one ${bytes.length}-byte chunk`);
    assertSame(parseChunks(splitAt(bytes, [PIECE + 1, 2 * PIECE + 7])), asString, `shift ${shift}: three chunks`);
  }
});

test('a piece with a few non-ASCII characters is decoded in parts: characters cut by a part boundary read right, and the ASCII parts keep the byte reader', () => {
  const PART = MIXED_PART_BYTES;
  // ASCII tables after a tqdm bar line whose first █ (3 bytes) straddles each of the first
  // eight part boundaries of the first piece, cut after its first or second byte.
  const BAR = 'Processed prompts: 100%|';
  let text = '';
  for (let k = 1; k <= 8; k++) {
    const lineStart = k * PART - BAR.length - 1 - (k % 2);
    text += 'y'.repeat(lineStart - utf8(text).length - 1) + '\n';
    text += BAR + '\u2588\u2588| 1/1\n';
  }
  const body = allRealLogs().replace(/[^\x00-\x7f]/g, '?');
  while (utf8(text).length < 3 * DECODE_PIECE_BYTES) text += body + '\n';
  const bytes = utf8(text);
  assertSame(parseBytes(bytes), parseChunks([text]), 'one chunk');

  // What the splitter hands on: every line as in the text, and byte views for the ASCII parts.
  const lines: string[] = [];
  let asciiParts = 0;
  let otherParts = 0;
  const splitter = new LineSplitter({
    line: (src, start, end) => void lines.push(src.slice(start, end)),
    problem: () => undefined,
    asciiBytes: (t, b) => {
      if (t === '') return;
      if (b === null) otherParts++;
      else asciiParts++;
    },
  });
  splitter.push(bytes);
  splitter.end();
  assert.deepEqual(lines, text.split('\n').slice(0, -1));
  // Parts 0-8 of the first piece hold a cut █ (parts k-1 and k for boundary k); parts 9-15
  // and the later, all-ASCII pieces are read from their bytes.
  assert.equal(otherParts, 9, 'parts decoded as UTF-8');
  assert.equal(asciiParts, 7 + Math.ceil(bytes.length / DECODE_PIECE_BYTES) - 1, 'ASCII parts and pieces');
});
