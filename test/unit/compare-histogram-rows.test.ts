// Histogram rows of a comparison of two scrapes: a side known to be wrong (a caveat) gets no
// difference and the row says why; a one-run row keeps that run's quantiles; what a scrape
// shows to be wrong becomes a finding that appears or disappears.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareHistograms } from '../../server/core/compare/histogramCompare';
import { histogramNoDiffText, histogramSideCell } from '../../server/core/compare/format';
import { histogramRowsOfScrape } from '../../server/core/compare/scrapeHistograms';
import { scrapeFindings } from '../../server/core/compare/scrapeFindings';
import { cutSeriesCaveat } from '../../server/core/metricsText/scrapeCut';
import type { HistogramRow } from '../../server/core/compare/types';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'scrapes');
const read = (name: string) => histogramRowsOfScrape(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));

const row = (count: number, p50: number | null, caveat: string | null = null): HistogramRow => ({
  family: 'vllm:inter_token_latency_seconds',
  labels: { stage: '1' },
  count,
  p50,
  p90: p50 === null ? null : p50 * 2,
  p99: p50 === null ? null : p50 * 3,
  openEnded: [],
  bounds: {},
  caveat,
});

test('a side known to be wrong: compared status kept, no quantile differences, the row says which run', () => {
  const cases: Array<[HistogramRow, HistogramRow, string, string | null]> = [
    [row(271, 0.4332, 'codec'), row(211, 0.4095), 'baseline', 'no Δ: known to be wrong in the baseline'],
    [row(211, 0.4095), row(271, 0.4332, 'codec'), 'candidate', 'no Δ: known to be wrong in the candidate'],
    [row(271, 0.4332, 'codec'), row(271, 0.4332, 'codec'), 'both', 'no Δ: known to be wrong in both runs'],
  ];
  for (const [b, c, where, text] of cases) {
    const [h] = compareHistograms([b], [c]);
    assert.ok(h);
    assert.equal(h.status, 'compared');
    assert.equal(h.notUsableIn, where);
    assert.deepEqual(h.quantiles, []);
    assert.equal(histogramNoDiffText(h), text);
  }
  const [usable] = compareHistograms([row(211, 0.4)], [row(211, 0.5)]);
  assert.ok(usable);
  assert.equal(usable.notUsableIn, null);
  assert.equal(histogramNoDiffText(usable), null);
  assert.deepEqual(
    usable.quantiles.map((q) => Math.round(q.diffMs * 1000) / 1000),
    [100, 200, 300],
  );
});

test('a one-run row keeps the quantiles of that run; the other side reads "-"', () => {
  const [h] = compareHistograms([row(0, null, 'codec')], [row(60, 0.08235)]);
  assert.ok(h);
  assert.equal(h.status, 'candidateOnly');
  assert.equal(histogramNoDiffText(h), 'candidate only; known to be wrong in the baseline');
  assert.deepEqual(
    (['p50', 'p90', 'p99'] as const).map((q) => [histogramSideCell(h.baseline, q), histogramSideCell(h.candidate, q)]),
    [
      ['-', '82.35'],
      ['-', '164.7'],
      ['-', '247.1'],
    ],
  );
});

test('the codec TTFT signature of a scrape is a finding of its stage, said once, and gone after the fix', () => {
  const before = read('codec-ttft-before-fix.prom');
  assert.deepEqual(
    before.findings.map((f) => [f.code, f.stageId, f.fromScrape, f.requestCount]),
    [['ttft-not-recorded', 1, true, 0]],
  );
  assert.match(
    before.findings[0]?.message ?? '',
    /^TTFT not recorded on stage 1: no TTFT sample but 271 inter-token latencies/,
  );
  assert.deepEqual(read('codec-ttft-fixed-old-prefix.prom').findings, []);
  // Rows without the exposition (a session's saved scrape) give the same signature from their caveats.
  assert.deepEqual(
    scrapeFindings(before.rows, null).map((f) => [f.code, f.stageId]),
    [['ttft-not-recorded', 1]],
  );
});

test('a TTFT row the scrape was cut in is unknown: no ttft-not-recorded finding of it, and its row says cut short', () => {
  const cut: HistogramRow = {
    family: 'vllm:time_to_first_token_seconds',
    labels: { stage: '1' },
    count: null,
    p50: null,
    p90: null,
    p99: null,
    caveat: cutSeriesCaveat('series'),
    cut: true,
  };
  assert.deepEqual(scrapeFindings([cut], null), []);
  const whole: HistogramRow = { ...cut, count: 10, p50: 0.5, p90: 0.9, p99: 1, caveat: null };
  delete (whole as { cut?: true }).cut;
  const [h] = compareHistograms([whole], [cut]);
  assert.ok(h);
  // Unknown in the candidate, not absent from it: no "baseline only".
  assert.equal(histogramNoDiffText(h), 'no Δ: cut short in the candidate');
  const [both] = compareHistograms([{ ...whole, caveat: 'a lie' }], [cut]);
  assert.ok(both);
  assert.equal(histogramNoDiffText(both), 'no Δ: known to be wrong in the baseline, cut short in the candidate');
  // Cut short in both runs: kept (unknown, not empty), saying so.
  const [bothCut] = compareHistograms([cut], [cut]);
  assert.deepEqual(
    [bothCut?.status, bothCut && histogramNoDiffText(bothCut)],
    ['neither', 'no Δ: cut short in both runs'],
  );
  // Observed in neither run, none of it cut: nothing to show.
  assert.deepEqual(compareHistograms([{ ...whole, count: 0, p50: null, p90: null, p99: null }], []), []);
});
