// engine-stats-only in a log still being written: the Engine lines, read through the real
// parser and analysis, hold it back while a first request may still print its table (running
// for less than a minute), and let it through once engines ran a minute without a table (log
// clock, or six stats intervals of lines without a timestamp). A whole log gets it at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';

const timed = (s: number): string =>
  `(APIServer pid=1) INFO 10-22 09:${String(30 + Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')} [loggers.py:127] ` +
  'Engine 000: Avg prompt throughput: 6.4 tokens/s, Avg generation throughput: 5.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.2%, Prefix cache hit rate: 0.0%\n';
const untimed =
  'Engine 000: Avg prompt throughput: 6.4 tokens/s, Avg generation throughput: 5.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.2%, Prefix cache hit rate: 0.0%\n';

function codes(text: string, live: boolean): string[] {
  const analysis = new StreamAnalysis({ live: () => live });
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(Buffer.from(text)));
  analysis.ingest(parser.end());
  return analysis.summary().findings.map((f) => f.code);
}

test('live: a request running for 50 s is not yet a log without tables; for 60 s it is', () => {
  const fifty = [0, 10, 20, 30, 40, 50].map(timed).join('');
  assert.deepEqual(codes(fifty, true), []);
  assert.deepEqual(codes(fifty + timed(60), true), ['engine-stats-only']);
});

test('live, lines without a timestamp: six stats intervals of a running request', () => {
  assert.deepEqual(codes(untimed.repeat(6), true), []);
  assert.deepEqual(codes(untimed.repeat(7), true), ['engine-stats-only']);
});

test('a whole log with one Engine line has the finding', () => {
  assert.deepEqual(codes(timed(0), false), ['engine-stats-only']);
});
