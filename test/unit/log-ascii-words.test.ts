// The byte comparisons of the parser's fast paths (asciiWords.ts, rawPrefixMatch.ts) must
// agree with a string compare on every input: these tests compare them with it at every
// position and length, one byte off at every index, and across pieces that reuse one
// buffer (as a reader that reads into the same Uint8Array does).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AsciiWords, WORD, sameBytes } from '../../server/core/log/asciiWords';
import { RawPrefixMatcher } from '../../server/core/log/rawPrefixMatch';
import { LogStreamParser } from '../../server/core/log';
import type { LogRecord, ParseOutput, ParseProblem } from '../../server/core/records';
import { ofKind, prng, utf8 } from './support/logHelpers';

const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Printable ASCII and control characters, DEL included (0x7f: the byte nearest a NaN pattern). */
function randomAscii(rand: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(rand() < 0.1 ? 0x7f : Math.floor(rand() * 0x80));
  return s;
}

test('AsciiWords: only ASCII strings of at least 8 characters', () => {
  assert.equal(AsciiWords.of('1234567'), null);
  assert.equal(AsciiWords.of('| vllm_ttft_ms   é |'), null);
  assert.notEqual(AsciiWords.of('12345678'), null);
});

test('AsciiWords.occursAt agrees with a string compare at every position, one byte off at each index, lengths 8-40', () => {
  const rand = prng(7);
  for (let length = WORD; length <= 40; length++) {
    const needle = randomAscii(rand, length);
    const words = AsciiWords.of(needle);
    assert.ok(words !== null);
    for (let off = 0; off < length; off++) {
      for (const delta of [1, -1]) {
        const c = needle.charCodeAt(off) + delta;
        if (c < 0 || c > 0x7f) continue;
        const near = needle.slice(0, off) + String.fromCharCode(c) + needle.slice(off + 1);
        const text = `xx${needle}yy${near}z`;
        const view = viewOf(utf8(text));
        for (let at = 0; at + length <= text.length; at++) {
          assert.equal(words.occursAt(view, at), text.startsWith(needle, at), `length ${length}, off ${off}, at ${at}`);
        }
      }
    }
  }
});

test('sameBytes agrees with a string compare for ranges that differ in one byte anywhere', () => {
  const rand = prng(11);
  for (let n = WORD; n <= 33; n++) {
    const a = randomAscii(rand, n);
    for (let off = 0; off < n; off++) {
      const b = a.slice(0, off) + String.fromCharCode((a.charCodeAt(off) + 1) % 0x80) + a.slice(off + 1);
      const view = viewOf(utf8(a + a + b));
      assert.equal(sameBytes(view, 0, n, n), true, `n ${n}: equal ranges`);
      assert.equal(sameBytes(view, 0, 2 * n, n), false, `n ${n}: differs at ${off}`);
    }
  }
});

test('RawPrefixMatcher: same answers as a string compare, line by line, across pieces reusing one buffer', () => {
  const rand = prng(3);
  const prefixes = [
    '(APIServer pid=4242) DEBUG 08-21 00:00:01 [stats.py:672] ',
    '(APIServer pid=4243) DEBUG 08-21 00:00:01 [stats.py:672] ',
    '(API) INFO 08-21 00:00:01 [x.py:1] ',
  ];
  const buffer = new Uint8Array(4096);
  const matcher = new RawPrefixMatcher();
  let checked = 0;
  for (let piece = 0; piece < 40; piece++) {
    // Lines whose prefixes are one of the above, or one of them with one character changed.
    let text = '';
    while (text.length < 3000) {
      let p = prefixes[Math.floor(rand() * prefixes.length)] as string;
      if (rand() < 0.3) {
        const at = Math.floor(rand() * p.length);
        p = p.slice(0, at) + String.fromCharCode(33 + Math.floor(rand() * 90)) + p.slice(at + 1);
      }
      text += `${p}| row ${Math.floor(rand() * 1000)} |\n`;
    }
    buffer.set(utf8(text));
    const bytes = buffer.subarray(0, text.length);
    const view = viewOf(bytes);
    // The record's raw prefix changes now and then, as records do; sometimes to an equal string that is another object.
    let raw = prefixes[piece % prefixes.length] as string;
    for (let start = 0; start < text.length;) {
      const end = text.indexOf('\n', start);
      if (rand() < 0.05) raw = (' ' + (prefixes[Math.floor(rand() * prefixes.length)] as string)).slice(1);
      assert.equal(
        matcher.matches(raw, text, start, end, view),
        text.startsWith(raw, start) && end - start >= raw.length,
        `piece ${piece} at ${start}`,
      );
      checked++;
      start = end + 1;
    }
  }
  assert.ok(checked > 1000);
});

test("a line whose prefix differs from its record's in one character is not read as part of it, with a reused read buffer", () => {
  const prefix = (pid: number): string => `(APIServer pid=${pid}) DEBUG 08-21 00:00:01 [stats.py:672] `;
  const table = (pid: number, id: string, value: number): string[] =>
    [
      '',
      `[StageRequestStats [request_id=${id}]]`,
      '+----------------+-------+',
      '| Field          | 0     |',
      '+----------------+-------+',
      `| vllm_queued_ms | ${value.toFixed(3).padStart(5)} |`,
      `| vllm_ttft_ms   | ${(value + 1).toFixed(3).padStart(5)} |`,
      '+----------------+-------+',
    ].map((line) => prefix(pid) + line + '\n');
  let text = '';
  for (let i = 0; i < 200; i++) {
    const a = table(4242, `a${i}`, i);
    const b = table(4243, `b${i}`, i + 0.5);
    // The other process's lines fall between this table's, at a different place each time.
    const cut = 1 + (i % 6);
    text += a.slice(0, cut).join('') + b.join('') + a.slice(cut).join('');
  }
  const bytes = utf8(text);
  // Read like a file reader that reuses one 1000-byte buffer.
  const buffer = new Uint8Array(1000);
  const parser = new LogStreamParser();
  const records: LogRecord[] = [];
  const problems: ParseProblem[] = [];
  const take = (o: ParseOutput): void => {
    records.push(...o.records);
    problems.push(...o.problems);
  };
  for (let i = 0; i < bytes.length; i += buffer.length) {
    const n = Math.min(buffer.length, bytes.length - i);
    buffer.set(bytes.subarray(i, i + n));
    take(parser.push(buffer.subarray(0, n)));
  }
  take(parser.end());
  const out: ParseOutput = { records, problems };
  const tables = ofKind(out, 'stageTable');
  assert.equal(tables.length, 400);
  assert.deepEqual(out.problems, []);
  for (const t of tables) {
    const n = Number(t.requestId.slice(1)) + (t.requestId.startsWith('b') ? 0.5 : 0);
    const fields = t.columns[0]?.fields;
    assert.deepEqual(fields?.['vllm_queued_ms'], { state: 'measured', value: Number(n.toFixed(3)) }, t.requestId);
    assert.deepEqual(fields?.['vllm_ttft_ms'], { state: 'measured', value: Number((n + 1).toFixed(3)) }, t.requestId);
  }
});

test("after a push the parser holds no reference to the caller's buffer, with a table still open", async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const prefix = '(APIServer pid=4242) DEBUG 08-21 00:00:01 [stats.py:672] ';
  // Rows matched by their bytes, and no bottom border: the table is still open after the push.
  const text = [
    '',
    '[StageRequestStats [request_id=r1]]',
    '+----------------+-------+',
    '| Field          | 0     |',
    '+----------------+-------+',
  ]
    .concat(Array.from({ length: 40 }, (_, i) => `| row_${String(i).padStart(2, '0')}_ms      | ${i}.000 |`))
    .map((line) => prefix + line + '\n')
    .join('');
  const parser = new LogStreamParser();
  let buffer: WeakRef<ArrayBuffer> | undefined;
  ((): void => {
    const bytes = utf8(text);
    buffer = new WeakRef(bytes.buffer as ArrayBuffer);
    assert.deepEqual(parser.push(bytes).records, []);
  })();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  assert.equal(buffer?.deref(), undefined, 'the pushed buffer was collected');
  const table = ofKind(parser.end(), 'stageTable')[0];
  assert.equal(table?.rows.length, 40, 'the open table kept its rows');
});
