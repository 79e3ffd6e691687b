// A finding says how many requests it concerns in all; a finding about a metric
// (metric-not-reporting) concerns none, and then no count is printed ("0 requests" would
// read as "it affected nothing").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis, type AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import type { Finding } from '../../server/core/analysis/types';
import { tableReport } from '../../server/core/report/tableReport';

const LOG = path.join(__dirname, '..', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log');

function snapshotWith(extra: Finding): AnalysisSnapshot {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(fs.readFileSync(LOG)));
  analysis.ingest(parser.end());
  analysis.flush();
  const snap = analysis.snapshot();
  return Object.create(snap, { findings: { value: [...snap.findings, extra] } }) as AnalysisSnapshot;
}

test('the table prints a finding about requests with its true count, and one about a metric without a count', () => {
  const metric: Finding = {
    code: 'metric-not-reporting',
    severity: 'warning',
    stageId: 0,
    requestIds: [],
    requestCount: 0,
    message: 'GPU KV cache usage reads 0 while requests finish.',
  };
  const lines = tableReport(snapshotWith(metric), { source: 'x.log' });
  const metricLine = lines.find((l) => l.includes('metric-not-reporting'));
  assert.equal(
    metricLine,
    '  [warning] metric-not-reporting (stage 0): GPU KV cache usage reads 0 while requests finish.',
  );
  const ttft = lines.find((l) => l.includes('ttft-not-recorded'));
  assert.match(ttft ?? '', /^ {2}\[warning\] ttft-not-recorded \(stage 1\), 6 requests: /);
});
