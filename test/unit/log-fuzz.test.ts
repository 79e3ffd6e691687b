// Deterministic fuzzing (seeded PRNG): the fixtures, mutated thousands of times (byte
// flips, deletions, duplicated / truncated / swapped lines, garbage and invalid UTF-8,
// ANSI fragments, very long lines), never make the parser throw or report an internal
// error, always give well-formed output, and give the same output however they are
// chunked. Time is linear: per-byte cost does not grow with the input.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LogRecord, ParseOutput } from '../../server/core/records';
import { FIXTURES, fixtureLog, parseBytes, parseChunks, prng, realLog, utf8 } from './support/logHelpers';

const corpus: Uint8Array[] = [
  ...readdirSync(join(FIXTURES, 'real-logs'))
    .sort()
    .map((f) => utf8(realLog(f))),
  ...readdirSync(join(FIXTURES, 'logs'))
    .sort()
    .map((f) => utf8(fixtureLog(f))),
  // Upstream's own rendering, also with a CI timestamp before every line and in Python's default format.
  ...readdirSync(join(FIXTURES, 'upstream-rendered'))
    .filter((f) => f.endsWith('.log'))
    .sort()
    .flatMap((f) => {
      const text = readFileSync(join(FIXTURES, 'upstream-rendered', f), 'utf8');
      const stamped = text
        .split('\n')
        .map((l, i) => (l === '' ? l : `[2026-01-22T14:19:${String(i % 60).padStart(2, '0')}Z] ${l}`))
        .join('\n');
      const python = text.replace(
        /^\((?:[^()]|\([^()]*\))*\) (DEBUG|INFO|WARNING) \d\d-\d\d \d\d:\d\d:\d\d \[[^\]]+\] ?/gm,
        '$1:vllm_omni.metrics.stats:',
      );
      return [utf8(text), utf8(stamped), utf8(python)];
    }),
];

const GARBAGE = [
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0x00],
  [0x0d],
  [0x0a],
  [0x1b, 0x5b, 0x33, 0x32, 0x6d], // ESC[32m
  [0x1b, 0x5b],
  ...[
    '|',
    '+',
    '[',
    ']',
    '{',
    '}',
    "'",
    '(',
    ')',
    '#',
    '=',
    ' None ',
    ' (n=',
    '->',
    '\r\n',
    '[StageRequestStats [request_id=',
    '] <empty>',
    '+---+',
    'INFO 08-21 18:00:00 [stats.py:1] ',
    '[2026-01-22T14:19:11Z] ',
    'INFO:vllm_omni.metrics.stats:',
  ].map((s) => [...utf8(s)]),
];

function lines(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      out.push(bytes.subarray(from, i + 1));
      from = i + 1;
    }
  }
  if (from < bytes.length) out.push(bytes.subarray(from));
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function mutate(input: Uint8Array, random: () => number, iteration: number): Uint8Array {
  let bytes: Uint8Array = Uint8Array.from(input);
  const pick = (n: number): number => Math.floor(random() * n);
  const rounds = 1 + pick(6);
  for (let r = 0; r < rounds && bytes.length > 0; r++) {
    const at = pick(bytes.length);
    switch (pick(8)) {
      case 0: // flip a byte
        bytes[at] = (bytes[at] ?? 0) ^ (1 << pick(8));
        break;
      case 1: // delete a run
        bytes = concat([bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + 1 + pick(40)))]);
        break;
      case 2: // inject garbage
        bytes = concat([
          bytes.subarray(0, at),
          Uint8Array.from(GARBAGE[pick(GARBAGE.length)] ?? []),
          bytes.subarray(at),
        ]);
        break;
      case 3: {
        // duplicate a line
        const ls = lines(bytes);
        const i = pick(ls.length);
        ls.splice(i, 0, ls[i] ?? new Uint8Array());
        bytes = concat(ls);
        break;
      }
      case 4: {
        // truncate a line
        const ls = lines(bytes);
        const i = pick(ls.length);
        const l = ls[i] ?? new Uint8Array();
        ls[i] = l.subarray(0, pick(l.length + 1));
        bytes = concat(ls);
        break;
      }
      case 5: {
        // swap two lines
        const ls = lines(bytes);
        const i = pick(ls.length);
        const j = pick(ls.length);
        [ls[i], ls[j]] = [ls[j] ?? new Uint8Array(), ls[i] ?? new Uint8Array()];
        bytes = concat(ls);
        break;
      }
      case 6: // cut the input anywhere
        bytes = bytes.subarray(0, at);
        break;
      default:
        {
          // splice in a piece of another fixture
          const other = corpus[pick(corpus.length)] ?? new Uint8Array();
          const from = pick(other.length);
          bytes = concat([bytes.subarray(0, at), other.subarray(from, from + pick(400)), bytes.subarray(at)]);
        }
        break;
    }
  }
  // Now and then a very long line (longer than the 1 MiB the parser keeps).
  if (iteration % 500 === 499) {
    const filler = utf8(['|', 'x', '[', '('][pick(4)] as string).at(0) ?? 0x78;
    const long = new Uint8Array((1 << 20) + 1000).fill(filler);
    bytes = concat([bytes.subarray(0, bytes.length >> 1), long, bytes.subarray(bytes.length >> 1)]);
  }
  return bytes;
}

function assertWellFormed(out: ParseOutput, where: string): void {
  for (const p of out.problems) {
    assert.ok(Number.isInteger(p.line) && p.line >= 1, `${where}: problem line ${p.line}`);
    assert.doesNotMatch(p.message, /internal parser error/, where);
  }
  for (const r of out.records as LogRecord[]) {
    assert.ok(Number.isInteger(r.line) && r.line >= 1, `${where}: record line`);
    switch (r.kind) {
      case 'stageTable':
        assert.equal(typeof r.requestId, 'string');
        for (const c of r.columns)
          for (const cell of Object.values(c.fields))
            assert.ok(['measured', 'notMeasured', 'text'].includes(cell.state), where);
        break;
      case 'omniTiming':
        for (const s of r.stages) assert.ok(Number.isInteger(s.stageId), where);
        break;
      default:
        break;
    }
  }
}

test('4000 seeded mutations of the fixtures: no throw, no internal error, well-formed, chunking-independent', () => {
  const random = prng(0x5eed);
  for (let i = 0; i < 4000; i++) {
    const source = corpus[i % corpus.length] ?? new Uint8Array();
    const bytes = mutate(source, random, i);
    const whole = parseBytes(bytes);
    assertWellFormed(whole, `iteration ${i}`);
    if (i % 8 === 0) {
      // Same output in random chunks.
      const cuts: Uint8Array[] = [];
      for (let at = 0; at < bytes.length;) {
        const size = 1 + Math.floor(random() * 300);
        cuts.push(bytes.subarray(at, at + size));
        at += size;
      }
      assert.deepStrictEqual(parseChunks(cuts), whole, `iteration ${i}: chunked`);
    }
  }
});

/** Best of a few runs, in ms per MB. */
function msPerMB(bytes: Uint8Array): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    parseChunks(chunked(bytes));
    best = Math.min(best, performance.now() - t0);
  }
  return best / (bytes.length / 1e6);
}

function chunked(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 65536) out.push(bytes.subarray(at, at + 65536));
  return out;
}

const repeat = (unit: string, bytes: number): Uint8Array => utf8(unit.repeat(Math.ceil(bytes / unit.length)));

const SHAPES: ReadonlyArray<readonly [string, (size: number) => Uint8Array]> = [
  [
    'a realistic log (the fixtures, repeated)',
    (n) =>
      repeat(
        fixtureLog('b7-examples-ansi.log') +
          fixtureLog('phase-split-none-duplex.log') +
          realLog('13-docs-contributing-metrics-example-tables.log'),
        n,
      ),
  ],
  [
    'one table that never ends, every row a new field',
    (n) =>
      utf8(
        '[StageRequestStats [request_id=x]]\n| Field | 0 |\n' +
          Array.from({ length: Math.ceil(n / 24) }, (_, i) => `| f_${i} | ${i} |\n`).join(''),
      ),
  ],
  ['rows without a title', (n) => repeat('| a | 1 | 2 |\n', n)],
  [
    'a legacy dict that never closes',
    (n) =>
      utf8(
        "INFO 01-08 00:44:53 [log_utils.py:549] {'type': 'request_level_metrics',\n" +
          "INFO 01-08 00:44:53 [log_utils.py:549]  'stages': {0: {'x': 1.5,\n".repeat(Math.ceil(n / 70)),
      ),
  ],
  ['one huge line of prefix look-alikes', (n) => repeat('INFO 08-21 18:00:00 [', n)],
  ['one huge line of brackets and parentheses', (n) => repeat('((([[[{{{', n)],
  ['one huge line of CI timestamp look-alikes', (n) => repeat('[2026-01-22T14:19:11.123456789Z] ', n)],
  [
    'CI timestamps before Python default prefixes with huge logger names',
    (n) => repeat(`[2026-01-22T14:19:11Z] INFO:${'a.'.repeat(500)}x\n`, n),
  ],
  ['one huge line of Python default prefix look-alikes', (n) => repeat('INFO:a', n)],
  [
    'an "Omni Metrics Summary" header, then one line of dashes',
    (n) => utf8(`============ Omni Metrics Summary ============\n${'-'.repeat(n)}x\n`),
  ],
  [
    'many processes, each with a lead-in',
    (n) =>
      utf8(Array.from({ length: Math.ceil(n / 50) }, (_, i) => `(P${i}) INFO 08-21 18:00:00 [stats.py:1] \n`).join('')),
  ],
];

test('time is linear: per-byte cost of 10x the input stays within a generous bound', () => {
  for (const [name, make] of SHAPES) {
    const small = make(200_000);
    const large = make(2_000_000);
    msPerMB(small); // warm up
    // The least of three runs each: a busy machine slows single runs, never the fastest one much.
    const a = Math.min(msPerMB(small), msPerMB(small), msPerMB(small));
    const b = Math.min(msPerMB(large), msPerMB(large), msPerMB(large));
    // Linear gives ~1; quadratic would give ~10. Allow 4 for GC and load noise.
    assert.ok(b / a < 4, `${name}: ${a.toFixed(1)} ms/MB at 0.2 MB, ${b.toFixed(1)} ms/MB at 2 MB`);
  }
});
