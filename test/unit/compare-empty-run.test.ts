// A run with nothing to compare (no request read, no /metrics histogram) is said to be one,
// with why: compare exits 2 on it instead of a report of "one run only" that passes a CI gate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { emptyRunReason, LogRunReader, histogramRowsOfScrape } from '../../server/core/compare';
import type { RunData } from '../../server/core/compare';

const LOG = readFileSync(
  path.join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'),
);

function logRun(bytes: Buffer): RunData {
  const reader = new LogRunReader(false);
  if (bytes.length > 0) reader.push(bytes);
  return { source: 'x.log', kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
}

test('a log with requests holds something; an empty one, a compressed one and one of binary data do not, each with why', () => {
  assert.equal(emptyRunReason(logRun(LOG)), null);
  assert.match(
    emptyRunReason(logRun(Buffer.alloc(0))) ?? '',
    /^0 requests read: no request stats in it \(.*--log-stats/,
  );
  assert.match(emptyRunReason(logRun(Buffer.from('INFO starting\nINFO ready\n'))) ?? '', /^0 requests read/);
  assert.match(emptyRunReason(logRun(gzipSync(LOG))) ?? '', /^The input is gzip-compressed .*zcat/);
  const bytes = Buffer.alloc(8192);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) & 0xff;
  assert.match(emptyRunReason(logRun(bytes)) ?? '', /^The input is binary data/);
});

test('a scrape holds something when it has histogram series; a session with neither log nor scrape does not', () => {
  const scrape = [
    '# TYPE vllm:e2e_request_latency_seconds histogram',
    'vllm:e2e_request_latency_seconds_bucket{le="1.0"} 3',
    'vllm:e2e_request_latency_seconds_bucket{le="+Inf"} 4',
    'vllm:e2e_request_latency_seconds_count 4',
    'vllm:e2e_request_latency_seconds_sum 3.5',
  ].join('\n');
  const rows = histogramRowsOfScrape(scrape).rows;
  assert.ok(rows.length > 0);
  const run = (histograms: RunData['histograms']): RunData => ({
    source: 's',
    kind: 'scrape',
    samples: null,
    histograms,
    problemCount: 0,
  });
  assert.equal(emptyRunReason(run(rows)), null);
  assert.equal(emptyRunReason(run([])), 'a /metrics scrape with no histogram series');
  assert.equal(emptyRunReason({ ...run(null), kind: 'session' }), 'neither a captured log nor a /metrics scrape');
  // Requests in the log beside an empty scrape: something to compare.
  assert.equal(emptyRunReason({ ...logRun(LOG), histograms: [] }), null);
});
