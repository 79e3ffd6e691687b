// Derived values at the log's 3 decimals (toLogPrecision): rounded where a double has thousandths,
// kept as they are beyond, so a huge printed value never turns a finite difference into ±Infinity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toLogPrecision } from '../../server/core/values';
import { requestJson } from '../../server/core/report/jsonReport';
import { analysedLog } from './support/analysedLog';

const PREFIX = '(APIServer pid=1) DEBUG 10-22 09:30:53 [vllm_omni/metrics/stats.py:1044] ';

/** A two-stage [StageRequestStats] table whose stage 0 first output is printed as `firstOutput0`. */
function stageTable(firstOutput0: string): Uint8Array {
  const rows: [string, string, string][] = [
    ['serving_time_to_first_output_ms', firstOutput0, '10,318.607'],
    ['stage_gen_time_ms', '9,910.007', '30,379.198'],
    ['vllm_prefill_ms', '406.200', '93.900'],
    ['vllm_queued_ms', '0.610', '0.350'],
    ['vllm_ttft_ms', '410.300', '94.700'],
  ];
  const border = `+${'-'.repeat(35)}+${'-'.repeat(50)}+${'-'.repeat(14)}+`;
  const line = (a: string, b: string, c: string): string =>
    `| ${a.padEnd(33)} | ${b.padStart(48)} | ${c.padStart(12)} |`;
  const text = [
    '',
    '[StageRequestStats [request_id=req-huge]]',
    border,
    line('Field', '0', '1'),
    border,
    ...rows.map((r) => line(...r)),
    border,
  ]
    .map((l) => PREFIX + l)
    .join('\n');
  return new TextEncoder().encode(`${text}\n`);
}

test('toLogPrecision: 3 decimals where a double has them, the value itself beyond 1e15', () => {
  assert.equal(toLogPrecision(-941.7080000000005), -941.708);
  assert.equal(toLogPrecision(1234.5675), 1234.568);
  assert.equal(toLogPrecision(-1e308), -1e308);
  assert.equal(toLogPrecision(1.7976931348623157e308), 1.7976931348623157e308);
  assert.equal(toLogPrecision(2.5e15), 2.5e15);
  assert.equal(toLogPrecision(Number.NEGATIVE_INFINITY), Number.NEGATIVE_INFINITY);
});

test('a huge printed first output: the time the next stage adds is that finite difference, never -Infinity', () => {
  const snapshot = analysedLog(stageTable('1e308'));
  const stage1 = snapshot.stages.find((s) => s.stageKey === '1');
  assert.equal(stage1?.addedTimeToFirstOutputMs?.p50, 10318.607 - 1e308);
  const [request] = snapshot.requests;
  assert.ok(request !== undefined);
  const json = JSON.parse(JSON.stringify(requestJson(request))) as { addedTimeToFirstOutputMs: Record<string, number> };
  assert.equal(json.addedTimeToFirstOutputMs['1'], -1e308);
  // An ordinary one is still at the log's 3 decimals.
  const plain = analysedLog(stageTable('469.500'));
  assert.equal(plain.stages.find((s) => s.stageKey === '1')?.addedTimeToFirstOutputMs?.p50, 9849.107);
});
