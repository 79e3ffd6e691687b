// The /metrics histograms on their way to the side panel: the summary rows of a scrape
// (count/sum unknown stays null, the codec TTFT signature is carried as a caveat, "≥" for
// open-ended quantiles), the rows read back from disk, and the side panel's /metrics table.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseExposition } from '../../server/core/metricsText';
import {
  histogramSummariesFromJson,
  histogramSummariesOf,
  summarizeScrape,
} from '../../server/core/metricsText/scrapeSummary';
import type { HistogramSummary } from '../../server/protocol';
import { downstreamQueueCaveat } from '../../server/shared';
import { scrapeCellView, scrapeModel } from '../../webview/sidePanel/scrapeModel';
import { cutSeriesCaveat } from '../../server/core/metricsText/scrapeCut';
import { BUGGY_CODEC_SCRAPE, HEALTHY_SCRAPE } from './support/scrapeFixtures';

const find = (rows: readonly HistogramSummary[], family: string, stage: string): HistogramSummary | undefined =>
  rows.find((r) => r.family === family && r.labels['stage'] === stage);

describe('histogram summaries of a scrape', () => {
  test('a series without _count, _sum or +Inf bucket has an unknown count and sum, not 0', () => {
    const body = [
      '# TYPE vllm:request_queue_time_seconds histogram',
      'vllm:request_queue_time_seconds_bucket{stage="0",le="0.1"} 3',
      'vllm:request_queue_time_seconds_bucket{stage="0",le="1"} 4',
      '',
    ].join('\n');
    const [row] = summarizeScrape(body).histograms;
    assert.ok(row !== undefined);
    assert.equal(row.count, null);
    assert.equal(row.sum, null);
    assert.deepEqual(row.openEnded, []);
    assert.equal(row.caveat, null);
  });

  test('a healthy scrape: counts and sums as exposed, no caveat', () => {
    const rows = histogramSummariesOf(parseExposition(HEALTHY_SCRAPE));
    const ttft = find(rows, 'vllm:time_to_first_token_seconds', '0');
    assert.equal(ttft?.count, 8);
    assert.ok(ttft?.sum !== null && ttft?.sum !== undefined && ttft.sum > 0);
    assert.ok(rows.every((r) => r.caveat === null));
  });

  test("the codec TTFT signature marks that stage's TTFT, ITL, prefill and decode series, and nothing else", () => {
    const rows = histogramSummariesOf(parseExposition(BUGGY_CODEC_SCRAPE));
    for (const family of [
      'vllm:time_to_first_token_seconds',
      'vllm:inter_token_latency_seconds',
      'vllm:request_prefill_time_seconds',
      'vllm:request_decode_time_seconds',
    ]) {
      assert.match(find(rows, family, '1')?.caveat ?? '', /TTFT not recorded on stage 1/, family);
      assert.equal(find(rows, family, '0')?.caveat, null, `${family} stage 0 is fine`);
    }
    assert.equal(find(rows, 'vllm:time_to_first_token_seconds', '1')?.count, 0);
    assert.equal(find(rows, 'vllm:e2e_request_latency_seconds', '1')?.caveat ?? null, null);
  });

  test('rows read back from scrape.json: well-formed kept, a missing count stays null, junk dropped', () => {
    const rows = histogramSummariesFromJson([
      {
        family: 'vllm:e2e_request_latency_seconds',
        labels: { stage: '0', bad: 3 },
        count: 5,
        sum: 2.5,
        p50: 0.4,
        p90: 0.9,
        p99: 1,
      },
      {
        family: 'vllm:time_to_first_token_seconds',
        labels: { stage: '1' },
        p50: null,
        p90: null,
        p99: null,
        openEnded: ['p99', 'x'],
        caveat: 'why',
      },
      { family: 3 },
      'junk',
    ]);
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[0]?.labels, { stage: '0' });
    assert.equal(rows[0]?.count, 5);
    assert.deepEqual(rows[0]?.openEnded, []);
    assert.equal(rows[1]?.count, null);
    assert.equal(rows[1]?.sum, null);
    assert.deepEqual(rows[1]?.openEnded, ['p99']);
    assert.equal(rows[1]?.caveat, 'why');
    assert.deepEqual(histogramSummariesFromJson({ not: 'an array' }), []);
  });
});

describe('side panel /metrics table', () => {
  const buggy = histogramSummariesOf(parseExposition(BUGGY_CODEC_SCRAPE));

  test('one row per stage series, quantiles in ms, labelled as histogram_quantile estimates', () => {
    const model = scrapeModel(buggy, 'p50', { '0': 'talker', '1': 'code2wav' });
    assert.deepEqual(
      model.rows.map((r) => r.label),
      ['stage 0 · replica 0', 'stage 1 · replica 0'],
    );
    assert.deepEqual(
      model.rows.map((r) => r.role),
      ['talker', 'code2wav'],
    );
    assert.deepEqual(
      model.rows.map((r) => r.stageId),
      [0, 1],
    );
    assert.ok(model.columns.some((c) => c.id === 'ttft'));
    const ttft0 = model.rows[0]?.cells['ttft'];
    const expected = (find(buggy, 'vllm:time_to_first_token_seconds', '0')?.p50 ?? NaN) * 1000;
    assert.equal(ttft0?.value, expected);
    assert.equal(ttft0?.state, 'measured');
    assert.match(ttft0?.title ?? '', /histogram_quantile over 8 observations of the last \/metrics scrape/);
    // Requests from a per-request family (TTFT: 8), never the per-token ITL count (80).
    assert.equal(model.rows[0]?.requestCount, 8);
    assert.equal(model.rows[0]?.countSource, 'vllm:time_to_first_token_seconds');
    // The codec stage's TTFT is the known lie and counts nothing.
    assert.notEqual(model.rows[1]?.countSource, 'vllm:time_to_first_token_seconds');
  });

  test('the codec stage shows "not recorded" / "not usable" with the explanation, never a number', () => {
    const model = scrapeModel(buggy, 'p50', {});
    const codec = model.rows[1];
    assert.equal(codec?.cells['ttft']?.text, 'not recorded');
    assert.equal(codec?.cells['ttft']?.value, null);
    for (const id of ['prefill', 'decode', 'itl']) {
      assert.equal(codec?.cells[id]?.text, 'not usable', id);
      assert.equal(codec?.cells[id]?.state, 'notRecorded', id);
      assert.match(codec?.cells[id]?.title ?? '', /codec TTFT bug/, id);
    }
    // Bars are not stretched by the wrong codec numbers: the largest decode bar is stage 0's.
    assert.equal(model.rows[0]?.cells['decode']?.ratio, 1);
  });

  test('an open-ended quantile reads "≥", a series with 0 observations "no samples", an absent family "—"', () => {
    const base = {
      family: 'vllm:e2e_request_latency_seconds',
      labels: { stage: '0' },
      sum: 100,
      p50: 1.5,
      p90: 80,
      p99: 80,
    };
    assert.equal(scrapeCellView({ ...base, count: 10, openEnded: ['p90', 'p99'] }, base.family, 'p99').text, '≥80,000');
    assert.match(
      scrapeCellView({ ...base, count: 10, openEnded: ['p90', 'p99'] }, base.family, 'p99').title,
      /at least 80,000 ms/,
    );
    assert.equal(scrapeCellView({ ...base, count: 10, openEnded: ['p90', 'p99'] }, base.family, 'p50').text, '1,500');
    const none = scrapeCellView({ ...base, count: 0, p50: null, p90: null, p99: null }, base.family, 'p50');
    assert.equal(none.text, 'no samples');
    assert.equal(none.value, null);
    const absent = scrapeCellView(undefined, base.family, 'p50');
    assert.equal(absent.state, 'empty');
    assert.match(absent.title, /not exposed/);
  });

  test('a downstream queue time with 0 observations reads "no samples", with its caveat; with samples "not usable"', () => {
    const caveat = downstreamQueueCaveat({ stage: '1' });
    assert.ok(caveat !== null);
    const queue = {
      family: 'vllm:request_queue_time_seconds',
      labels: { stage: '1' },
      sum: 0,
      count: 0,
      p50: null,
      p90: null,
      p99: null,
      caveat,
    };
    const empty = scrapeCellView(queue, queue.family, 'p50');
    assert.deepEqual([empty.text, empty.state, empty.value], ['no samples', 'notMeasured', null]);
    assert.match(
      empty.title,
      /0 observations in the last scrape, so there is no p50 \(not 0 ms\)\. Stage 1 is downstream/,
    );
    const used = scrapeCellView({ ...queue, count: 9, sum: 0.6, p50: 0.07, p90: 0.09, p99: 0.1 }, queue.family, 'p50');
    assert.deepEqual([used.text, used.state, used.value], ['not usable', 'notRecorded', null]);
  });

  test('a series the scrape was cut in reads "cut short" (unknown), not "not usable"', () => {
    const caveat = cutSeriesCaveat('series');
    const cut = {
      family: 'vllm:e2e_request_latency_seconds',
      labels: { stage: '0' },
      sum: null,
      count: null,
      p50: null,
      p90: null,
      p99: null,
      caveat,
      cut: true as const,
    };
    const view = scrapeCellView(cut, cut.family, 'p50');
    assert.deepEqual([view.text, view.state, view.value], ['cut short', 'notRecorded', null]);
    assert.equal(view.title, `vllm:e2e_request_latency_seconds{stage="0"}: ${caveat}`);
  });

  test('no latency histograms in the scrape: no rows (the section stays hidden)', () => {
    assert.equal(scrapeModel([], 'p50', {}).rows.length, 0);
    assert.equal(
      scrapeModel(
        [{ family: 'vllm:some_other_seconds', labels: {}, count: 1, sum: 1, p50: 1, p90: 1, p99: 1 }],
        'p50',
        {},
      ).rows.length,
      0,
    );
  });
});
