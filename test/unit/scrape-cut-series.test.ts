// The series a /metrics scrape cut short may have lost lines of: the line the text ends inside is
// not read, and in the family the cut fell in, a histogram or summary series is whole only once
// its _count and a line after it were read; the others keep no numbers and say they were cut.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  parseExposition,
  type HistogramFamily,
  type ParsedExposition,
  type SummaryFamily,
} from '../../server/core/metricsText';

const H = [
  '# TYPE h histogram',
  'h_bucket{stage="0",le="1.0"} 2.0',
  'h_bucket{stage="0",le="+Inf"} 3.0',
  'h_count{stage="0"} 3.0',
  'h_sum{stage="0"} 1.5',
  'h_bucket{stage="1",le="1.0"} 10.0',
  'h_bucket{stage="1",le="+Inf"} 12.0',
  'h_count{stage="1"} 12.0',
  'h_sum{stage="1"} 9.25',
  '',
].join('\n');

/** stage -> [count, sum, cut] of histogram h. */
function counts(parsed: ParsedExposition): Record<string, [number | null, number | null, boolean]> {
  const family = parsed.families.find((f) => f.name === 'h') as HistogramFamily;
  return Object.fromEntries(
    family.series.map((s) => [
      s.labels['stage'] ?? '',
      [s.count, s.sum, s.cut === true] as [number | null, number | null, boolean],
    ]),
  );
}

const upTo = (text: string, line: string, keep: number): string =>
  text.slice(0, text.indexOf(line) + line.length + keep);

test('a whole text marks nothing cut; a text ending with a line feed is cut only when its gzip data broke', () => {
  assert.deepEqual(counts(parseExposition(H)), { '0': [3, 1.5, false], '1': [12, 9.25, false] });
  assert.deepEqual(counts(parseExposition(H, { gzipBroke: true })), { '0': [3, 1.5, false], '1': [null, null, true] });
  const cutAtSum = upTo(H, 'h_count{stage="1"} 12.0\n', 0);
  assert.deepEqual(counts(parseExposition(cutAtSum)), { '0': [3, 1.5, false], '1': [12, null, false] });
  assert.deepEqual(counts(parseExposition(cutAtSum, { gzipBroke: true })), {
    '0': [3, 1.5, false],
    '1': [null, null, true],
  });
});

test('the line a text ends inside is not read: a number cut inside its digits is no number', () => {
  assert.deepEqual(counts(parseExposition(upTo(H, 'h_count{stage="1"}', 2))), {
    '0': [3, 1.5, false],
    '1': [null, null, true],
  });
  const gauge = parseExposition('# TYPE g gauge\ng{a="1"} 10.0\ng{a="2"} 12');
  assert.deepEqual(
    gauge.families[0]?.series.map((s) => s.labels['a']),
    ['1'],
  );
  assert.equal(gauge.unterminatedLine, 3);
  assert.deepEqual(gauge.problems, [
    { line: 3, message: 'the text ends inside this line (no line feed after it): cut short, so it is not read' },
  ]);
});

test('the cut line shows another series began only when its name and labels are whole', () => {
  // Stage 1's first bucket line, its labels whole: stage 0 is whole, stage 1 is exposed and cut.
  assert.deepEqual(counts(parseExposition(upTo(H, 'h_bucket{stage="1",le="1.0"}', 2))), {
    '0': [3, 1.5, false],
    '1': [null, null, true],
  });
  // Cut inside its labels: nothing says stage 0's lines had ended.
  assert.deepEqual(counts(parseExposition(upTo(H, 'h_bucket{stage="1"', 0))), { '0': [null, null, true] });
  // A comment begun after the family: it had ended.
  assert.deepEqual(counts(parseExposition(`${H}# HEL`)), { '0': [3, 1.5, false], '1': [12, 9.25, false] });
  // The _created family prometheus_client writes after it: the histogram's series are whole.
  const created = `${H}# TYPE h_created gauge\nh_created{stage="0"} 1700000000.0\nh_created{stage="1"} 17000`;
  assert.deepEqual(counts(parseExposition(created)), { '0': [3, 1.5, false], '1': [12, 9.25, false] });
});

test('in the family the cut fell in, a series whose _count was not read is cut, wherever its lines were', () => {
  const interleaved = [
    '# TYPE h histogram',
    'h_bucket{stage="0",le="+Inf"} 3.0',
    'h_bucket{stage="1",le="+Inf"} 12.0',
    'h_count{stage="0"} 3.0',
    'h_sum{stage="0"} 1.5',
    'h_bucket{stage="2",le="+Inf"} 1.0',
    'h_count{stage="2"} 1.0',
  ].join('\n');
  assert.deepEqual(counts(parseExposition(interleaved)), {
    '0': [3, 1.5, false],
    '1': [null, null, true],
    '2': [null, null, true],
  });
});

test('a summary series cut keeps no quantiles', () => {
  const text = '# TYPE s summary\ns{quantile="0.5"} 0.2\ns{quantile="0.99"} 1.5\ns_sum 12.0\ns_count 4';
  const family = parseExposition(text).families[0] as SummaryFamily;
  assert.deepEqual(family.series, [{ labels: {}, quantiles: [], sum: null, count: null, created: null, cut: true }]);
});
