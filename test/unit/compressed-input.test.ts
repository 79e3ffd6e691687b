// A compressed file given as a log (a rotated server.log.1.gz) is said to be one, with how to
// read it, instead of "no stats tables: set DEBUG": by its magic number at byte 0 only, so a
// log that starts with NUL bytes (a copytruncate hole) is still read as text.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { LogStreamParser } from '../../server/core/log';
import { compressedFormatOf } from '../../server/core/log/compressedInput';
import { StreamAnalysis, type AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { tableReport } from '../../server/core/report/tableReport';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { compareRuns } from '../../server/core/compare';

const LOG = readFileSync(
  path.join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'),
);

/** The input in pieces of the given sizes (the rest in one last piece). */
function analyse(input: Buffer, pieces: readonly number[] = []): AnalysisSnapshot {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  let at = 0;
  for (const n of [...pieces, input.length]) {
    analysis.ingest(parser.push(input.subarray(at, Math.min(input.length, at + n))));
    at = Math.min(input.length, at + n);
  }
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis.snapshot();
}

describe('a compressed file given as a log', () => {
  test('the four formats by their magic numbers; text, NUL bytes and a short head are not', () => {
    assert.equal(compressedFormatOf(gzipSync(LOG)), 'gzip');
    assert.equal(compressedFormatOf([0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58]), 'zstd');
    assert.equal(compressedFormatOf([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), 'xz');
    assert.equal(compressedFormatOf(Buffer.from('BZh91AY')), 'bzip2');
    assert.equal(compressedFormatOf(LOG), null);
    assert.equal(compressedFormatOf(new Uint8Array(4096)), null);
    assert.equal(compressedFormatOf([0xfd, 0x37, 0x7a]), null);
  });

  test('a gzip log: one problem at line 1, the error finding, and the table says it instead of the DEBUG advice', () => {
    // The magic number split over two chunks is still seen.
    const snapshot = analyse(gzipSync(LOG), [1, 3]);
    assert.equal(snapshot.requestCount, 0);
    assert.deepEqual(
      snapshot.problems.filter((p) => p.compressed !== undefined).map((p) => [p.line, p.message]),
      [[1, 'the input is gzip-compressed, not a text log: decompress it first (zcat)']],
    );
    const finding = snapshot.findings.find((f) => f.code === 'input-compressed');
    assert.equal(finding?.severity, 'error');
    assert.match(finding?.message ?? '', /gzip-compressed .*`zcat server\.log\.1\.gz \| stage-lens analyze -`/);
    const table = tableReport(snapshot, { source: 'server.log.1.gz' });
    assert.ok(
      table.includes('No per-request stage statistics: the input is a compressed file, not a text log (see Findings).'),
    );
    assert.ok(!table.some((l) => l.includes('VLLM_LOGGING_LEVEL=DEBUG')), table.join('\n'));
  });

  test('the same log as text, and after a copytruncate hole of NUL bytes, has no such finding', () => {
    assert.equal(analyse(LOG).requestCount, 6);
    const holed = analyse(Buffer.concat([Buffer.alloc(8192), LOG]));
    assert.equal(holed.requestCount, 6);
    assert.equal(
      holed.findings.some((f) => f.code === 'input-compressed'),
      false,
    );
    assert.equal(
      holed.problems.some((p) => p.compressed !== undefined),
      false,
    );
    // Text pushed as a string is never judged by bytes.
    const parser = new LogStreamParser();
    const out = parser.push('\u001f\u008b not gzip\n');
    assert.equal(out.problems.length, 0);
  });

  test('a two-byte input that is only the gzip magic is judged at its end', () => {
    const snapshot = analyse(Buffer.from([0x1f, 0x8b]));
    assert.equal(
      snapshot.findings.some((f) => f.code === 'input-compressed'),
      true,
    );
  });

  test('compare: the compressed run gets the note with the way to read it, and no finding "disappeared"', () => {
    const read = (bytes: Buffer) => {
      const reader = new LogRunReader(false);
      reader.push(bytes);
      return reader.end();
    };
    const result = compareRuns(
      { source: 'old.log.1.gz', kind: 'log', samples: read(gzipSync(LOG)), histograms: null, problemCount: 1 },
      { source: 'new.log', kind: 'log', samples: read(LOG), histograms: null, problemCount: 0 },
    );
    assert.ok(
      result.notes.some((n) => n.startsWith('The baseline (old.log.1.gz): The input is gzip-compressed')),
      result.notes.join('\n'),
    );
    assert.ok(!result.notes.some((n) => n.includes('0 requests read')));
    assert.equal(
      result.findings.some((f) => f.code === 'input-compressed'),
      false,
    );
  });
});
