// scrape-findings.json read back: the metric-not-reporting findings a session's scrapes made
// come back as they were written (by way of JSON), and a finding of any other shape is dropped
// whole, never listed in part.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { metricNotReportingInScrape } from '../../server/core/explain/metricNotReporting';
import { parseExposition } from '../../server/core/metricsText';
import { scrapeFindingsFromJson } from '../../server/capture/storage/storedScrapeFindings';
import { scrapeCutFinding } from '../../server/core/metricsText/scrapeCut';

const STUCK = [
  '# TYPE vllm_omni:e2e_request_latency_s histogram',
  'vllm_omni:e2e_request_latency_s_bucket{le="+Inf"} 12',
  'vllm_omni:e2e_request_latency_s_count 12',
  'vllm_omni:e2e_request_latency_s_sum 30',
  '# TYPE vllm:time_to_first_token_seconds histogram',
  'vllm:time_to_first_token_seconds_bucket{stage="0",replica="0",le="+Inf"} 0',
  'vllm:time_to_first_token_seconds_count{stage="0",replica="0"} 0',
  'vllm:time_to_first_token_seconds_sum{stage="0",replica="0"} 0',
  '',
].join('\n');

test('the findings a scrape made come back from their JSON as they were', () => {
  const findings = metricNotReportingInScrape(parseExposition(STUCK));
  assert.deepEqual(
    findings.map((f) => [f.code, f.family]),
    [['metric-not-reporting', 'vllm:time_to_first_token_seconds']],
  );
  assert.deepEqual(scrapeFindingsFromJson(JSON.parse(JSON.stringify(findings))), findings);
});

test('a finding of another shape is dropped whole; a file that is not a list gives none', () => {
  const good = {
    code: 'metric-not-reporting',
    severity: 'warning',
    stageId: 1,
    requestIds: [],
    requestCount: 0,
    message: 'vllm:kv_cache_usage_perc is registered but reads 0',
  };
  assert.deepEqual(
    scrapeFindingsFromJson([
      good,
      { ...good, code: 'cold-start' },
      { ...good, severity: 'loud' },
      { ...good, stageId: '1' },
      { ...good, requestIds: [3] },
      { ...good, message: null },
      { ...good, knownCauses: 'one' },
      { ...good, evidence: 7 },
      'junk',
      null,
    ]),
    [good],
  );
  assert.deepEqual(scrapeFindingsFromJson({ findings: [good] }), []);
  assert.deepEqual(scrapeFindingsFromJson(null), []);
});

test("a scrape's cut-short finding comes back from its JSON after the others, as it was", () => {
  const cut = STUCK + '# TYPE vllm:prompt_tokens_total counter\nvllm:prompt_tokens_total{stage="0"';
  const parsed = parseExposition(cut);
  const finding = scrapeCutFinding(parsed);
  assert.ok(finding !== null);
  const findings = [...metricNotReportingInScrape(parsed), finding];
  assert.deepEqual(
    findings.map((f) => f.code),
    ['metric-not-reporting', 'input-cut-short'],
  );
  assert.deepEqual(scrapeFindingsFromJson(JSON.parse(JSON.stringify(findings))), findings);
});
