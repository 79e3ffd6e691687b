// The "Omni Metrics Summary" block of vllm-omni#3069 is read like the older stats dicts, but
// that pull request was closed unmerged: the finding, the CSV's note and the table call it that
// branch's layout, never "vLLM-Omni's format before February 2026" (real-logs 12).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tableReport } from '../../server/core/report/tableReport';
import { legacyStatsNote } from '../../server/core/analysis/legacyStats';
import { analysedLog } from './support/analysedLog';

const REAL = path.join(__dirname, '../fixtures/real-logs');
const UNMERGED_BLOCK_LOG = path.join(REAL, '12-pr3069-unmerged-omni-metrics-summary.log');
const SUMMARY_DICT_LOG = path.join(REAL, '14-issue533-legacy-summary-dict.log');
const FIX =
  'a current vLLM-Omni (February 2026 or later) prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG';
const BLOCK =
  '1 "Omni Metrics Summary" block, the layout of vLLM-Omni PR #3069, which was closed unmerged (only a server built from that branch prints it): run totals, no request and no queued / prefill / decode / TTFT split';

test('the PR #3069 block alone: the finding, the CSV note and the table name that branch, not the older format', () => {
  const snap = analysedLog(UNMERGED_BLOCK_LOG);
  assert.equal(snap.unmergedSummaryBlocks, 1);
  assert.equal(
    snap.findings.find((f) => f.code === 'legacy-stats-format')?.message,
    `The log has ${BLOCK}. For a phase split, ${FIX}.`,
  );
  assert.equal(
    legacyStatsNote(snap.legacyRecords, snap.legacyRequests, snap.unmergedSummaryBlocks),
    `the input has ${BLOCK}; ${FIX}`,
  );
  assert.doesNotMatch(tableReport(snap, { source: 'x.log' }).join(' '), /format before February 2026/);
});

test('an older summary dict and a PR #3069 block: each said for what it is', () => {
  const both = analysedLog(Buffer.concat([fs.readFileSync(SUMMARY_DICT_LOG), fs.readFileSync(UNMERGED_BLOCK_LOG)]));
  assert.equal(both.legacyRecords, 2);
  assert.equal(
    both.findings.find((f) => f.code === 'legacy-stats-format')?.message,
    "The log has 1 stats dict in vLLM-Omni's format before February 2026 (request_level_metrics, transfer and [Summary] dicts, printed at INFO): " +
      `none of them is a request_level_metrics dict, so no request is read from them; and ${BLOCK}. For a phase split, ${FIX}.`,
  );
  assert.equal(
    legacyStatsNote(both.legacyRecords, both.legacyRequests, both.unmergedSummaryBlocks),
    `the input has 1 stats dict in vLLM-Omni's format before February 2026: no request_level_metrics dict, so no request; and ${BLOCK}; ${FIX}`,
  );
});
