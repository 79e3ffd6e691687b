// phase-split-not-printed: stage tables that print no row of the phase split on any stage,
// though an LLM stage produced output (a build from before the split, real-logs 13), say why
// every phase reads hidden; a table that prints the split, a cut-off table, a diffusion-only
// request and an INFO-level log do not raise it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { analysedLog } from './support/analysedLog';
import { realLog, utf8 } from './support/logHelpers';
import { tableReport } from '../../server/core/report/tableReport';

const RENDERED = path.join(__dirname, '..', 'fixtures', 'upstream-rendered');
const PREFIX = '(APIServer pid=1) DEBUG 10-22 09:30:53 [vllm_omni/metrics/stats.py:1044] ';

/** A one-stage [StageRequestStats] table of `rows`; `cut` leaves out its closing border. */
function oneStageTable(id: string, rows: readonly (readonly [string, string])[], cut = false): string {
  const border = `+${'-'.repeat(35)}+${'-'.repeat(14)}+`;
  const line = (a: string, b: string): string => `| ${a.padEnd(33)} | ${b.padStart(12)} |`;
  const lines = ['', `[StageRequestStats [request_id=${id}]]`, border, line('Field', '0'), border];
  lines.push(...rows.map(([a, b]) => line(a, b)));
  if (!cut) lines.push(border);
  return `${lines.map((l) => PREFIX + l).join('\n')}\n`;
}

const finding = (text: string | Uint8Array) =>
  analysedLog(typeof text === 'string' ? utf8(text) : text).findings.filter(
    (f) => f.code === 'phase-split-not-printed',
  );

test('real-logs 13 (a table with no vllm_* row): the finding, once, and the table lists it', () => {
  const snapshot = analysedLog(utf8(realLog('13-docs-contributing-metrics-example-tables.log')));
  const found = snapshot.findings.filter((f) => f.code === 'phase-split-not-printed');
  assert.equal(found.length, 1);
  assert.equal(found[0]?.severity, 'info');
  assert.equal(found[0]?.requestCount, 1);
  assert.match(found[0]?.message ?? '', /^No request's \[StageRequestStats\] table prints any row of the phase split/);
  assert.match(found[0]?.message ?? '', /most likely predates the per-stage phase split/);
  // The phases stay hidden: the rendering rule is kept, the finding says why.
  assert.equal(snapshot.stages[0]?.splitStates.ttftMs.hidden, 1);
  assert.ok(
    tableReport(snapshot, { source: 'x' }).some((l) => l.startsWith('  [info] phase-split-not-printed, 1 request: ')),
  );
});

test('no finding where the split is printed, the table was cut, the request is diffusion only, or the log is INFO level', () => {
  for (const file of [
    'qwen3tts-talker-first-audio-before-fix.log',
    'qwen3tts-talker-first-audio-after-fix.log',
    'qwen3-omni-three-stage-transfers.log',
    'qwen3tts-info-level-omnitiming-only.log',
  ])
    assert.deepEqual(
      analysedLog(path.join(RENDERED, file)).findings.filter((f) => f.code === 'phase-split-not-printed'),
      [],
      file,
    );
  const llm: [string, string][] = [
    ['num_tokens_out', '67'],
    ['output_unit_count', '67'],
    ['stage_gen_time_ms', '9,910.007'],
  ];
  assert.equal(finding(oneStageTable('old', llm)).length, 1, 'an LLM stage with output and no split row');
  assert.deepEqual(finding(oneStageTable('cut', llm, true)), [], 'a table cut off before its vllm_* rows');
  assert.deepEqual(finding(oneStageTable('split', [...llm, ['vllm_ttft_ms', '410.300']])), [], 'a split row');
  assert.deepEqual(finding(oneStageTable('none', [...llm, ['vllm_prefill_ms', 'None']])), [], 'a None split row');
  const diffusion: [string, string][] = [
    ['diffusion_engine_exec_time_s', '2.635'],
    ['image_pixels', '1048576'],
    ['stage_gen_time_ms', '2,700.000'],
  ];
  assert.deepEqual(finding(oneStageTable('image', diffusion)), [], 'a diffusion-only request');
});
