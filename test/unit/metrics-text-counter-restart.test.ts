// A restart of a scraped /metrics server between two scrapes, on bodies rendered by the real
// prometheus_client (test/fixtures/scrapes/restart-created/render.py): counts that go down say
// it; counts that grew past their old values say nothing, and only the series' `_created`
// times, which the restart renewed, do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './support/logHelpers';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { histogramSummariesOf } from '../../server/core/metricsText/scrapeSummary';
import { createdTimes, restartBetween, scrapeLifeOf } from '../../server/core/metricsText/counterReset';

const body = (name: string): string => readFileSync(join(FIXTURES, 'scrapes', 'restart-created', name), 'utf8');
const BEFORE = body('1-before.prom');
const GROWN = body('2-grown.prom');
const RESTARTED = body('3-restarted.prom');
const SUCCESS =
  'vllm:request_success_total{engine="0", finished_reason="stop", model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"}';
const E2E = 'vllm:e2e_request_latency_seconds{engine="0", model_name="Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"}';

/** The same body as a server without `_created` (prometheus_client's multiprocess mode) exposes it. */
const withoutCreated = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !/_created[{ ]/.test(line))
    .join('\n');

function restart(before: string, after: string) {
  const a = parseExposition(before);
  const b = parseExposition(after);
  return restartBetween(histogramSummariesOf(a), scrapeLifeOf(a), histogramSummariesOf(b), scrapeLifeOf(b));
}

/** The `_created` value printed for the series named `prefix{...}` in the body. */
function printedCreated(text: string, prefix: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${prefix}{`));
  assert.ok(line !== undefined, prefix);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

test("each counter's and histogram's series `_created`, named as their values are", () => {
  const created = createdTimes(parseExposition(GROWN));
  assert.deepEqual(
    [...created],
    [
      [SUCCESS, printedCreated(GROWN, 'vllm:request_success_created')],
      [E2E, printedCreated(GROWN, 'vllm:e2e_request_latency_seconds_created')],
    ],
  );
});

test('the same server, its counts grown: no restart', () => {
  assert.equal(restart(BEFORE, GROWN), null);
});

test('a restart whose counts grew past the old ones: seen by `_created`, with the counts and both times', () => {
  assert.deepEqual(restart(GROWN, RESTARTED), {
    series: SUCCESS,
    before: 14,
    after: 20,
    createdBefore: printedCreated(GROWN, 'vllm:request_success_created'),
    createdAfter: printedCreated(RESTARTED, 'vllm:request_success_created'),
  });
});

test('without `_created`: the decrease rule alone, which a grown count passes unseen', () => {
  assert.equal(restart(withoutCreated(GROWN), withoutCreated(RESTARTED)), null);
  // Counts that went down are still a restart (the histogram's, checked before the counters').
  assert.deepEqual(restart(withoutCreated(RESTARTED), withoutCreated(BEFORE)), { series: E2E, before: 20, after: 12 });
});

test('`_created` in one scrape only is no restart by itself; a count that went down still is', () => {
  assert.equal(restart(withoutCreated(GROWN), RESTARTED), null);
  assert.deepEqual(restart(BEFORE, withoutCreated(GROWN)), null);
  assert.deepEqual(restart(RESTARTED, withoutCreated(BEFORE))?.after, 12);
});
