// What `explain` says it checked on a /metrics scrape agrees with what it found: a "Checked:"
// sentence says "no …" only where its check found nothing, and otherwise names what the
// metric-not-reporting findings above it say. Scrapes of the simulator (test/fixtures/scrapes)
// and the same text with a family zeroed, read through the real exposition parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseExposition } from '../../server/core/metricsText/exposition';
import { metricNotReportingInScrape, scrapeChecksDone } from '../../server/core/explain/metricNotReporting';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'scrapes');
const read = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const TTFT_CLEAN = "Checked: no stage's TTFT histogram is empty while its inter-token latency has samples.";
const KV_CLEAN = 'Checked: no engine with requests running reads a KV-cache usage of 0.';

/** The text with the value of every line that starts with `prefix` (and matches `where`) set to 0. */
function zeroed(text: string, prefix: string, where = ''): string {
  return text
    .split('\n')
    .map((l) => (l.startsWith(prefix) && l.includes(where) ? l.replace(/ \S+$/, ' 0.0') : l))
    .join('\n');
}

function checked(text: string): { findings: string[]; checks: string[] } {
  const parsed = parseExposition(text);
  return {
    findings: metricNotReportingInScrape(parsed).map((f) => `${f.family} ${f.stageId ?? '-'}: ${f.evidence ?? ''}`),
    checks: scrapeChecksDone(parsed),
  };
}

test('a codec TTFT that records nothing under talker first audio: the finding, and the check names it instead of saying there is none', () => {
  // The simulator before the codec TTFT fix (simulate --talker-first-audio --stats-build before-fix).
  const { findings, checks } = checked(read('codec-ttft-before-fix.prom'));
  assert.deepEqual(findings, [
    'vllm:time_to_first_token_seconds 1: stage 1 replica 0: no TTFT sample while its inter-token latency has 271',
  ]);
  assert.ok(
    checks.includes(
      "Checked: the TTFT histogram of stage 1 replica 0 is empty while its inter-token latency has samples (metric-not-reporting, above); no other stage's is.",
    ),
    checks.join('\n'),
  );
  assert.ok(!checks.includes(TTFT_CLEAN), checks.join('\n'));
});

test('every TTFT series empty while the inter-token latency has samples: the family finding, and the check names each stage', () => {
  const { findings, checks } = checked(zeroed(read('qwen3-omni.prom'), 'vllm:time_to_first_token_seconds_'));
  assert.deepEqual(findings, [
    'vllm:time_to_first_token_seconds -: 0 on all 3 (stage, replica) series while vllm_omni:e2e_request_latency_s counts 40 finished requests',
  ]);
  assert.ok(
    checks.includes(
      'Checked: the TTFT histograms of stage 0 replica 0, stage 1 replica 0 and stage 2 replica 0 are empty while their inter-token latency has samples (metric-not-reporting, above).',
    ),
    checks.join('\n'),
  );
  assert.ok(!checks.includes(TTFT_CLEAN), checks.join('\n'));
});

test('a KV-cache usage of 0 with requests running: the finding, and the check names the engine instead of saying there is none', () => {
  const omni = read('qwen3-omni.prom');
  // As scraped: stage 0 runs nothing, stages 1 and 2 run 4 requests each with KV usage above 0.
  assert.deepEqual(checked(omni).findings, []);
  assert.ok(checked(omni).checks.includes(KV_CLEAN));

  const { findings, checks } = checked(zeroed(omni, 'vllm:kv_cache_usage_perc{', 'stage="2"'));
  assert.deepEqual(findings, [
    'vllm:kv_cache_usage_perc 2: stage 2 replica 0: 1 of 1 scrape with requests running (last: 4) read 0',
  ]);
  assert.ok(
    checks.includes(
      'Checked: the engine of stage 2 replica 0 reads a KV-cache usage of 0 with requests running (metric-not-reporting, above); no other engine does.',
    ),
    checks.join('\n'),
  );
  assert.ok(!checks.includes(KV_CLEAN), checks.join('\n'));
});

test('on every scrape fixture, a check says "no …" only where it found nothing', () => {
  for (const name of fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.prom'))) {
    const { findings, checks } = checked(read(name));
    const ttft = findings.some((f) => f.startsWith('vllm:time_to_first_token_seconds'));
    const kv = findings.some((f) => f.startsWith('vllm:kv_cache_usage_perc'));
    assert.equal(checks.includes(TTFT_CLEAN) && ttft, false, `${name}: ${checks.join('\n')}`);
    assert.equal(checks.includes(KV_CLEAN) && kv, false, `${name}: ${checks.join('\n')}`);
  }
});
