// Binary data given as a log (random bytes, an image) is said to be one, not "no stats tables:
// set DEBUG"; text in UTF-8 or UTF-16, a copytruncate hole of NUL bytes and a log's colour
// codes are not binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { looksBinary } from '../../server/core/log/binaryInput';
import { StreamAnalysis, type AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { tableReport } from '../../server/core/report/tableReport';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const LOG = readFileSync(path.join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'));
const ANSI = readFileSync(path.join(FIXTURES, 'logs', 'b7-examples-ansi.log'));

/** Deterministic bytes spread over 0..255 (a 32-bit LCG's high byte). */
function noise(n: number, seed = 1): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

function analyse(input: Buffer): AnalysisSnapshot {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(input));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis.snapshot();
}

test('random bytes are binary; logs in UTF-8 (colour codes too), UTF-16 and after a NUL hole are not', () => {
  for (const seed of [1, 2, 3]) assert.equal(looksBinary(noise(4096, seed)), true, `seed ${seed}`);
  assert.equal(looksBinary(LOG.subarray(0, 4096)), false);
  assert.equal(looksBinary(ANSI.subarray(0, 4096)), false);
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LOG.toString('utf8'), 'utf16le')]);
  assert.equal(looksBinary(utf16.subarray(0, 4096)), false);
  assert.equal(looksBinary(Buffer.concat([Buffer.alloc(2000), LOG]).subarray(0, 4096)), false);
  assert.equal(looksBinary(new Uint8Array(4096)), false, 'NUL bytes only: a hole, not data');
  // Non-ASCII text, and a multi-byte character cut by the end of the head.
  assert.equal(looksBinary(Buffer.from('Größe: 12 ms → 你好\n'.repeat(50) + '你').subarray(0, -1)), false);
});

test('random bytes read as a log: one problem at line 1, the error finding, and the table says so', () => {
  const snapshot = analyse(noise(200_000));
  assert.equal(snapshot.requestCount, 0);
  assert.deepEqual(
    snapshot.problems.filter((p) => p.binary === true).map((p) => [p.line, p.message]),
    [[1, 'the input is binary data, not a text log']],
  );
  const finding = snapshot.findings.find((f) => f.code === 'input-binary');
  assert.equal(finding?.severity, 'error');
  assert.match(finding?.message ?? '', /^The input is binary data, .*so nothing in it was read/);
  const table = tableReport(snapshot, { source: 'junk.bin' });
  assert.ok(
    table.includes('No per-request stage statistics: the input is binary data, not a text log (see Findings).'),
  );
  assert.ok(!table.some((l) => l.includes('VLLM_LOGGING_LEVEL=DEBUG')), table.join('\n'));
});

test('a log, and a short binary input judged at its end', () => {
  const log = analyse(LOG);
  assert.equal(log.requestCount, 6);
  assert.equal(
    log.findings.some((f) => f.code === 'input-binary'),
    false,
  );
  assert.equal(
    analyse(noise(100)).findings.some((f) => f.code === 'input-binary'),
    true,
  );
});

test('NUL bytes only, in any chunks: the zero-filled error, not the --log-stats advice; a NUL hole before a log is read', () => {
  const parse = (chunks: readonly (Uint8Array | string)[]): AnalysisSnapshot => {
    const analysis = new StreamAnalysis();
    const parser = new LogStreamParser();
    for (const chunk of chunks) analysis.ingest(parser.push(chunk));
    analysis.ingest(parser.end());
    analysis.flush();
    return analysis.snapshot();
  };
  for (const chunks of [
    [Buffer.alloc(100_000)],
    [Buffer.alloc(3), Buffer.alloc(0), Buffer.alloc(9_997)],
    ['\0'.repeat(100_000)],
  ]) {
    const snapshot = parse(chunks);
    assert.deepEqual(
      snapshot.problems.map((p) => [p.line, p.message, p.zeroFilledBytes]),
      [
        [
          1,
          'the input is ' +
            (chunks.length === 1 ? '100,000' : '10,000') +
            ' NUL bytes and nothing else (a zero-filled file), not a text log',
          chunks.length === 1 ? 100_000 : 10_000,
        ],
      ],
    );
    assert.deepEqual(
      snapshot.findings.map((f) => [f.code, f.severity]),
      [['input-zero-filled', 'error']],
    );
    assert.match(
      snapshot.findings[0]?.message ?? '',
      /^The input is [\d,]+ NUL bytes and nothing else: a zero-filled file/,
    );
    const table = tableReport(snapshot, { source: 'preallocated.log' });
    assert.ok(
      table.includes(
        'No per-request stage statistics: the input is NUL bytes only (a zero-filled file), no text (see Findings).',
      ),
      table.join('\n'),
    );
    assert.ok(!table.some((l) => l.includes('--log-stats')), table.join('\n'));
  }
  // A copytruncate hole, then the log: every request read, nothing said of zeros.
  const afterHole = parse([Buffer.alloc(5_000), LOG]);
  assert.equal(afterHole.requestCount, 6);
  assert.deepEqual(
    afterHole.findings.filter((f) => f.code.startsWith('input-')),
    [],
  );
  // One byte of text after the zeros is not a zero-filled file either.
  assert.equal(
    parse([Buffer.alloc(5_000), Buffer.from('x')]).findings.some((f) => f.code === 'input-zero-filled'),
    false,
  );
  assert.equal(parse([Buffer.alloc(0)]).findings.length, 0, 'an empty input is no zero-filled file');
});
