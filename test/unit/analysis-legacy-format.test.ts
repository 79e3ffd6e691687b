// Logs in vLLM-Omni's format before February 2026 (pprinted dicts): recognised, not analyzed,
// and said so in every output, so such a log never reads as an empty one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import { tableReport } from '../../server/core/report/tableReport';
import { analysisJsonRest } from '../../server/core/report/jsonReport';
import { legacyStatsNote } from '../../server/core/analysis/legacyStats';

const REAL = path.join(__dirname, '../fixtures/real-logs');
// Two dicts: a request_level_metrics and a [Summary] (vllm-omni#500).
const SUMMARY_LOG = path.join(REAL, '08-pr500-legacy-omni-summary.log');
const CURRENT_LOG = path.join(__dirname, '../fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');

function analysis(text: string): StreamAnalysis {
  const parser = new LogStreamParser();
  const a = new StreamAnalysis();
  a.ingest(parser.push(Buffer.from(text)));
  a.ingest(parser.end());
  a.flush();
  return a;
}

test('legacy dicts alone: a warning finding with the count and the fix, in the snapshot, the live summary and JSON', () => {
  const a = analysis(fs.readFileSync(SUMMARY_LOG, 'utf8'));
  const snap = a.snapshot();
  assert.equal(snap.requestCount, 0);
  assert.equal(snap.legacyRecords, 2);
  const [f, ...rest] = snap.findings;
  assert.deepEqual(rest, []);
  assert.equal(f?.code, 'legacy-stats-format');
  assert.equal(f?.severity, 'warning');
  assert.match(f?.message ?? '', /^The log has 2 stats dicts in vLLM-Omni's format before February 2026 /);
  assert.match(f?.message ?? '', /--log-stats at VLLM_LOGGING_LEVEL=DEBUG\.$/);
  // What the editor's findings list shows.
  assert.deepEqual(
    a.summary().findings.map((x) => x.code),
    ['legacy-stats-format'],
  );
  const json = analysisJsonRest(snap, [], []);
  assert.equal(json.legacyRecords, 2);
  assert.deepEqual(
    json.findings.map((x) => [x.code, x.severity]),
    [['legacy-stats-format', 'warning']],
  );
  assert.equal(
    legacyStatsNote(snap.legacyRecords, snap.requestCount),
    "no requests: the input has 2 stats dicts in vLLM-Omni's format before February 2026 (recognised, not analyzed); a current vLLM-Omni prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG",
  );
});

test('the table says it once, in place of "no statistics", and lists no finding again', () => {
  const snap = analysis(fs.readFileSync(SUMMARY_LOG, 'utf8')).snapshot();
  // Wrapped lines joined back into sentences.
  const text = tableReport(snap, { source: 'x.log' }).join(' ');
  assert.equal(text.split("vLLM-Omni's format before February 2026").length - 1, 1);
  assert.match(text, /No per-request stage statistics in the current format\. The log has 2 stats dicts/);
  assert.doesNotMatch(text, /Findings:/);
});

test('legacy dicts next to current records: an info finding; no dicts: none', () => {
  const current = fs.readFileSync(CURRENT_LOG, 'utf8');
  const legacy = fs.readFileSync(SUMMARY_LOG, 'utf8');
  const both = analysis(legacy + current).snapshot();
  assert.equal(both.requestCount, 6);
  const f = both.findings.find((x) => x.code === 'legacy-stats-format');
  assert.equal(f?.severity, 'info');
  assert.equal(legacyStatsNote(both.legacyRecords, both.requestCount), null);
  const table = tableReport(both, { source: 'x.log' }).join('\n');
  assert.match(table, /\[info\] legacy-stats-format: The log has 2 stats dicts/);
  const none = analysis(current).snapshot();
  assert.equal(none.legacyRecords, 0);
  assert.equal(
    none.findings.some((x) => x.code === 'legacy-stats-format'),
    false,
  );
  assert.equal(analysis('').snapshot().findings.length, 0);
});
