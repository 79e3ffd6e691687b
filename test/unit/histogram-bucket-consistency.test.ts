// A /metrics histogram series whose buckets cannot be one scrape's counts (falling counts, a
// NaN or negative count, a _count other than the +Inf bucket's) is marked as known to mislead,
// naming the series and why; the histograms of real scrapes are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { parseExposition } from '../../server/core/metricsText';
import { histogramSummariesOf } from '../../server/core/metricsText/scrapeSummary';

const SCRAPES = path.join(__dirname, '..', 'fixtures', 'scrapes');
const LABELS = 'model_name="m",stage="0",replica="0"';

/** One vllm:e2e_request_latency_seconds series of `buckets` (le -> count) and `_count`. */
function scrape(buckets: readonly (readonly [string, string])[], count: string): string {
  return [
    '# TYPE vllm:e2e_request_latency_seconds histogram',
    ...buckets.map(([le, n]) => `vllm:e2e_request_latency_seconds_bucket{le="${le}",${LABELS}} ${n}`),
    `vllm:e2e_request_latency_seconds_sum{${LABELS}} 3.5`,
    `vllm:e2e_request_latency_seconds_count{${LABELS}} ${count}`,
    '',
  ].join('\n');
}

const caveatOf = (text: string): string | null | undefined => histogramSummariesOf(parseExposition(text))[0]?.caveat;
const SERIES = `vllm:e2e_request_latency_seconds{${LABELS}}`;

test('falling bucket counts, a NaN or negative count, a _count unlike the +Inf bucket: marked, with the series and why', () => {
  assert.equal(
    caveatOf(
      scrape(
        [
          ['0.5', '5'],
          ['1.0', '3'],
          ['+Inf', '4'],
        ],
        '4',
      ),
    ),
    `${SERIES}: its buckets are not cumulative: le="0.5" counts 5 and le="1" only 3 (a histogram's counts never fall as le grows). PromQL's histogram_quantile raises the lower counts to repair it, as here; the quantiles of such a series are no measurement.`,
  );
  assert.match(
    caveatOf(
      scrape(
        [
          ['1.0', '3'],
          ['+Inf', 'NaN'],
        ],
        '4',
      ),
    ) ?? '',
    /: its bucket le="\+Inf" counts NaN, not a number of observations/,
  );
  assert.match(
    caveatOf(
      scrape(
        [
          ['1.0', '-1'],
          ['+Inf', '4'],
        ],
        '4',
      ),
    ) ?? '',
    /: its bucket le="1" counts -1, not a number of observations/,
  );
  assert.equal(
    caveatOf(
      scrape(
        [
          ['1.0', '3'],
          ['+Inf', '4'],
        ],
        '7',
      ),
    ),
    `${SERIES}: its _count (7) is not its +Inf bucket's count (4): the two are one number in a scrape, so its counts and quantiles are no measurement.`,
  );
});

test('an infinite count is spelled as the scrape spells it (+Inf, -Inf), not as JavaScript does', () => {
  assert.equal(
    caveatOf(
      scrape(
        [
          ['1.0', '3'],
          ['+Inf', '4'],
        ],
        '1e400',
      ),
    ),
    `${SERIES}: its _count (+Inf) is not its +Inf bucket's count (4): the two are one number in a scrape, so its counts and quantiles are no measurement.`,
  );
  assert.match(
    caveatOf(
      scrape(
        [
          ['1.0', '-Inf'],
          ['+Inf', '4'],
        ],
        '4',
      ),
    ) ?? '',
    /: its bucket le="1" counts -Inf, not a number of observations/,
  );
});

test('consistent buckets are not marked: a made-up series and every series of the real scrapes', () => {
  assert.equal(
    caveatOf(
      scrape(
        [
          ['0.5', '1'],
          ['1.0', '3'],
          ['+Inf', '4'],
        ],
        '4',
      ),
    ),
    null,
  );
  const files = readdirSync(SCRAPES).filter((f) => f.endsWith('.prom'));
  assert.ok(files.length >= 4);
  for (const file of files)
    for (const h of histogramSummariesOf(parseExposition(readFileSync(path.join(SCRAPES, file), 'utf8'))))
      assert.doesNotMatch(
        h.caveat ?? '',
        /not cumulative|not a number of observations|_count \(/,
        `${file} ${h.family}`,
      );
});
