// A log of [OmniTiming] lines only (a server at the default INFO level, printed by
// vLLM-Omni's own stats code): every surface says once what is missing and the exact fix,
// and still shows what the log has: each stage's time and the end-to-end time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis, type AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { tableReport } from '../../server/core/report/tableReport';
import {
  STATS_LOGGER_FIX,
  STATS_TABLES_CUT_FIX,
  STATS_TABLES_FIX,
  edgeTableNotPrinted,
} from '../../server/core/analysis/tablesMissing';
import { analysedStream } from './support/analysedLog';
import { overallSummaryExcerpt } from './support/logHelpers';
import {
  formatStageDetail,
  formatStageNumbers,
  INLAY_LABEL_BUDGET,
  liveHints,
  type LiveStageNumbers,
  type StageLiveNumbers,
} from '../../server/core/deploy';
import { stagesRanAlongside } from '../../server/core/deploy/liveNumbers';
import { timingModel } from '../../webview/sidePanel/timingModel';
import { headline } from '../../webview/sidePanel/summaryModel';
import { tableColumns } from '../../webview/latencyPanel/table/columns';
import { analyzeFixture } from './support/deployHelpers';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { compareTable } from '../../server/core/compare/tableReport';
import type { RunData } from '../../server/core/compare/types';
import { summaryResultOf } from './support/summaryResult';

const INFO_LOG = path.join(__dirname, '../fixtures/upstream-rendered/qwen3tts-info-level-omnitiming-only.log');

function analyse(text: string): AnalysisSnapshot {
  const parser = new LogStreamParser();
  const analysis = new StreamAnalysis();
  analysis.ingest(parser.push(Buffer.from(text)));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis.snapshot();
}

const occurrences = (text: string, needle: string): number => text.split(needle).length - 1;

test('the upstream INFO log: the notice once, stage time and end to end in place of the phase split', () => {
  const snap = analyse(fs.readFileSync(INFO_LOG, 'utf8'));
  assert.equal(snap.requests.length, 6);
  assert.deepEqual(
    { requests: snap.tablesMissing?.requests, of: snap.tablesMissing?.of, all: snap.tablesMissing?.all },
    { requests: 6, of: 6, all: true },
  );
  assert.ok(snap.tablesMissing?.message.includes(`Fix: ${STATS_TABLES_FIX}.`));
  assert.match(STATS_TABLES_FIX, /VLLM_LOGGING_LEVEL=DEBUG/);
  // End to end from [OmniTiming] total= (0.74, 4.47, 2.05, 1.13, 0.45, 1.72 s).
  assert.equal(snap.endToEnd?.ms.count, 6);
  assert.equal(snap.endToEnd?.fromOmniTiming, 6);
  assert.equal(snap.endToEnd?.ms.p50, 1425);
  assert.equal(snap.endToEnd?.ms.max, 4470);

  const text = tableReport(snap, { source: 'info.log' }).join('\n');
  assert.equal(occurrences(text, 'VLLM_LOGGING_LEVEL=DEBUG'), 1, 'said once');
  assert.equal(occurrences(text, 'stage-tables-missing'), 0, 'not repeated as a finding');
  assert.doesNotMatch(text, /Phase split per stage/);
  const rows = text
    .split('\n')
    .filter((l) => /^(stage \d|end to end)/.test(l))
    .map((l) => l.split(/\s{2,}/));
  assert.deepEqual(rows, [
    ['stage 0', '6', '1,275', '3,095', '4,198', '4,320'],
    ['stage 1', '6', '1,415', '3,250', '4,339', '4,460'],
    ['end to end', '6', '1,425', '3,260', '4,349', '4,470'],
  ]);
  // The finding is still there for JSON consumers, with the same words.
  assert.equal(snap.findings.find((f) => f.code === 'stage-tables-missing')?.message, snap.tablesMissing?.message);
});

test('a log where only some requests lack the tables says how many, and keeps the phase split', () => {
  const debug = fs.readFileSync(path.join(__dirname, '../fixtures/logs/phase-split-none-duplex.log'), 'utf8');
  const snap = analyse(debug + fs.readFileSync(INFO_LOG, 'utf8'));
  const missing = snap.tablesMissing;
  assert.ok(missing !== null && !missing.all);
  assert.equal(missing.requests, 6);
  // The other requests' tables are at DEBUG: the server did not run at INFO.
  assert.ok(
    missing.message.startsWith(
      `6 of ${missing.of} requests have no [StageRequestStats] table, only [OmniTiming] lines, though this log has DEBUG lines: `,
    ),
    missing.message,
  );
  assert.ok(missing.message.endsWith(`Fix: ${STATS_LOGGER_FIX}.`), missing.message);
  const text = tableReport(snap, { source: 'mixed.log' }).join('\n');
  assert.match(text, /Phase split per stage/);
  assert.equal(occurrences(text.replaceAll('\n', ' '), 'vllm_omni.metrics.stats logger log at DEBUG'), 1);
  assert.equal(occurrences(text, 'ran at INFO'), 0);
});

test('an excerpt of a DEBUG log with [Overall Summary] at DEBUG and [OmniTiming] only: the stage tables were cut out, not left unprinted', () => {
  const text = overallSummaryExcerpt(true);
  assert.match(text, /DEBUG .*\[Overall Summary\]/);
  assert.doesNotMatch(text, /StageRequestStats|RequestE2EStats/);
  const snap = analyse(text);
  assert.equal(snap.statsTablesAtDebug, true);
  const missing = snap.tablesMissing;
  assert.ok(missing !== null && missing.all && missing.requests === 6, JSON.stringify(missing));
  assert.match(
    missing.message,
    /^No request has a \[StageRequestStats\] table, only \[OmniTiming\] lines, though this log has stats tables printed at DEBUG: /,
  );
  assert.match(missing.message, /they were cut out of this excerpt/);
  assert.ok(missing.message.endsWith(`Fix: ${STATS_TABLES_CUT_FIX}.`), missing.message);
  // The stats logger demonstrably logs at DEBUG: neither its level nor the server's is offered as the cause.
  assert.doesNotMatch(missing.message, /set above DEBUG|ran at INFO|VLLM_LOGGING_LEVEL=DEBUG in its environment/);
  const finding = snap.findings.find((f) => f.code === 'stage-tables-missing');
  assert.equal(finding?.message, missing.message);
  const text2 = tableReport(snap, { source: 'excerpt.log' }).join('\n').replaceAll('\n', ' ');
  assert.equal(occurrences(text2, 'they were cut out of this excerpt'), 1);
  // The same log whole: every request has its tables, and nothing is said missing.
  const whole = analyse(
    fs.readFileSync(
      path.join(__dirname, '../fixtures/upstream-rendered/qwen3tts-talker-first-audio-after-fix.log'),
      'utf8',
    ),
  );
  assert.equal(whole.statsTablesAtDebug, true);
  assert.equal(whole.tablesMissing, null);
  // At INFO (no table at all) the level stays the fix.
  const info = analyse(fs.readFileSync(INFO_LOG, 'utf8'));
  assert.equal(info.statsTablesAtDebug, false);
  assert.ok(info.tablesMissing?.message.endsWith(`Fix: ${STATS_TABLES_FIX}.`));
});

test('deploy-YAML hints of an excerpt with [Overall Summary] at DEBUG: the tables were cut out, the whole log is the fix', () => {
  const missing = analyse(overallSummaryExcerpt(true)).tablesMissing;
  assert.ok(missing !== null);
  assert.equal(missing.cutOut, true);
  assert.equal(missing.debugLines, true);
  const [first] = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), {
    sessionLabel: 'import excerpt.log',
    stages: [timedStage(0, 1275), timedStage(1, 1415)],
    tablesMissing: missing,
  });
  assert.ok(
    first?.tooltip.startsWith(
      'no phase split: the stage tables were cut out of the log read (fix: the whole log) · stage time p50 1,275 ms (n=6)\n\n',
    ),
    first?.tooltip,
  );
  assert.ok(first?.tooltip.includes(`\n\n${missing.message}`));
  // Where some requests have their tables, no cut is claimed: the others may be of a boot at INFO.
  const mixed = analyse(
    fs.readFileSync(path.join(__dirname, '../fixtures/logs/phase-split-none-duplex.log'), 'utf8') +
      overallSummaryExcerpt(true),
  ).tablesMissing;
  assert.ok(mixed !== null && !mixed.all);
  assert.equal(mixed.cutOut, undefined);
});

test('an excerpt of [Overall Summary] tables printed at DEBUG alone: the per-request tables were cut out', () => {
  const snap = analyse(overallSummaryExcerpt(false));
  assert.equal(snap.statsTablesAtDebug, true);
  assert.equal(snap.overallSummaries?.tables, 6);
  const text = tableReport(snap, { source: 'excerpt.log' }).join('\n').replaceAll('\n', ' ');
  assert.match(
    text,
    /No per-request stage statistics: the log has 6 \[Overall Summary\] tables, printed at DEBUG, but no \[StageRequestStats\] table\. vLLM-Omni's stats logger prints/,
  );
  assert.equal(occurrences(text, `Fix: ${STATS_TABLES_CUT_FIX}.`), 1);
  assert.doesNotMatch(text, /set above DEBUG/);
});

test('side panel and latency panel: stage time and end to end, in ms, instead of empty phase columns', () => {
  const snap = analyse(fs.readFileSync(INFO_LOG, 'utf8'));
  const summary = summaryResultOf(snap);
  const model = timingModel(summary, 'p50', { '0': 'talker', '1': 'code2wav' });
  assert.deepEqual(
    model.columns.map((c) => c.id),
    ['time'],
  );
  assert.deepEqual(
    model.rows.map((r) => [r.label, r.role, r.cells['time']?.text, r.cells['time']?.value]),
    [
      ['stage 0', 'talker', '1,275', 1275],
      ['stage 1', 'code2wav', '1,415', 1415],
      ['end to end', '', '1,425', 1425],
    ],
  );
  assert.deepEqual(
    headline(summary),
    { label: 'end to end', percentiles: true, p50: 1425, p90: 3260, p99: 4349 },
    'the trend follows the end-to-end time',
  );
  const columns = tableColumns(summary.stages, {}, true, summary.endToEnd?.ms ?? null);
  assert.deepEqual(
    columns.map((c) => c.id),
    ['requestId', 'target:e2e', '0.field:omni_timing_stage_s', '1.field:omni_timing_stage_s'],
  );
  // The first request's `total=0.74s`: its end to end, in ms, from [OmniTiming].
  const e2e = columns[1]!.read(snap.requests[0]!);
  assert.deepEqual([e2e.text, e2e.state, e2e.value], ['740', 'measured', 740]);
  assert.match(e2e.title, /^end to end from \[OmniTiming\] total=: 740 ms, printed in 10 ms steps/);
  assert.equal(columns[1]!.slowAbove, summary.endToEnd?.ms.p90);
  // What scrolling writes is the same cell, without the hover text.
  for (const r of snap.requests) {
    const { text, state, value } = columns[1]!.read(r);
    assert.deepEqual(columns[1]!.cell(r), { text, state, value });
  }
});

/** A stage of the INFO-level log as a session reports it: its [OmniTiming] time only (p50), 6 requests. */
function timedStage(stageId: number, stageTimeP50Ms: number): StageLiveNumbers {
  return {
    stageId,
    ttftP50Ms: null,
    prefillP50Ms: null,
    queuedP50Ms: null,
    n: 6,
    ttftNotRecorded: false,
    stageTimeP50Ms,
  };
}

test("deploy-YAML hints: the first stage's numbers within the editor's 43 characters, then the notice's mark; the notice in its hover", () => {
  const numbers: LiveStageNumbers = {
    sessionLabel: 'launch session x (running)',
    stages: [timedStage(0, 1275), timedStage(1, 1415)],
    tablesMissing: { requests: 6, of: 6, all: true, message: 'No request has a [StageRequestStats] table ... Fix: x.' },
  };
  const hints = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), numbers);
  // No phase split is shown as none, never as 0 ms; the count gives way to the mark, the stage time does not.
  assert.deepEqual(
    hints.map((h) => h.label),
    [
      'p50 stage time 1.28 s · no split: INFO log',
      'p50 stage time 1.42 s (n=6)',
      'codec TTFT unknown: no stats tables (INFO)',
    ],
  );
  for (const h of hints) assert.ok(h.label.length <= INLAY_LABEL_BUDGET, h.label);
  assert.ok(
    hints[0]?.tooltip.startsWith(
      'no phase split: the server logs at INFO (fix: VLLM_LOGGING_LEVEL=DEBUG) · stage time p50 1,275 ms (n=6)\n\n',
    ),
    hints[0]?.tooltip,
  );
  assert.ok(hints.every((h) => h.tooltip.includes('No request has a [StageRequestStats] table')));
  const partial = { ...numbers.tablesMissing!, requests: 2, all: false };
  assert.deepEqual(
    liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), {
      ...numbers,
      tablesMissing: partial,
    }).map((h) => h.label)[0],
    'p50 stage time 1.28 s · 2/6 no stats tables',
  );
  // Where the mark does not fit beside the stage's first numbers, the numbers alone: the notice leads the hover.
  const split: StageLiveNumbers = { ...timedStage(0, 1275), prefillP50Ms: 39, ttftP50Ms: 41.2, queuedP50Ms: 0.44 };
  const [first] = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), {
    ...numbers,
    stages: [split],
    tablesMissing: partial,
  });
  assert.equal(first?.label, 'p50 prefill 39 ms · TTFT 41 ms (n=6)');
  assert.ok(
    first?.tooltip.startsWith('2 of 6 requests without stats tables (fix: VLLM_LOGGING_LEVEL=DEBUG) · TTFT p50 41 ms'),
  );
});

test('deploy-YAML hints of a log with DEBUG lines: no claim that the server logs at INFO; the stats logger is the fix', () => {
  // The upstream INFO-level log with a line at DEBUG in its own prefix, as a session's summary carries it.
  const lines = fs.readFileSync(INFO_LOG, 'utf8').split('\n');
  const snap = analyse(
    [
      lines[0],
      '(APIServer pid=5151) DEBUG 10-19 07:12:05 [omni.py:862] [Orchestrator] generate() called',
      ...lines.slice(1),
    ].join('\n'),
  );
  const missing = snap.tablesMissing;
  assert.ok(missing !== null);
  assert.equal(missing.debugLines, true);
  const numbers: LiveStageNumbers = {
    sessionLabel: 'launch session x (exited)',
    stages: [timedStage(0, 1275), timedStage(1, 1415)],
    tablesMissing: missing,
  };
  const hints = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), numbers);
  assert.deepEqual(
    hints.map((h) => h.label),
    [
      'p50 stage time 1.28 s · no split: no tables',
      'p50 stage time 1.42 s (n=6)',
      'codec TTFT unknown: no stats tables',
    ],
  );
  for (const h of hints) assert.ok(h.label.length <= INLAY_LABEL_BUDGET, h.label);
  assert.ok(
    hints[0]?.tooltip.startsWith(
      'no phase split: no stats tables, though the log has DEBUG lines (fix: vllm_omni.metrics.stats at DEBUG) · stage time p50 1,275 ms (n=6)\n\n',
    ),
    hints[0]?.tooltip,
  );
  for (const h of hints) {
    assert.ok(h.tooltip.includes(`\n\n${missing.message}`), h.tooltip);
    assert.doesNotMatch(h.tooltip, /INFO/);
  }
  const [partial] = liveHints(analyzeFixture('qwen3_tts_high_concurrency_mrv2_single_gpu.yaml'), {
    ...numbers,
    stages: [{ ...timedStage(0, 1275), prefillP50Ms: 39, ttftP50Ms: 41.2, queuedP50Ms: 0.44 }],
    tablesMissing: { ...missing, requests: 2, all: false },
  });
  assert.ok(
    partial?.tooltip.startsWith(
      '2 of 6 requests without stats tables (fix: vllm_omni.metrics.stats at DEBUG) · TTFT p50 41 ms',
    ),
    partial?.tooltip,
  );
});

test("deploy-YAML hints: where the stages ran at the same time, a downstream stage's time says it holds the upstream time", () => {
  // The INFO-level log: on 6 of 6 requests the [OmniTiming] stage times overlap (async chunk).
  const findings = analyse(fs.readFileSync(INFO_LOG, 'utf8')).findings;
  assert.equal(stagesRanAlongside(findings, 6), true);
  assert.equal(stagesRanAlongside(findings, 13), false, 'on fewer than half the requests: not said');
  const sequential = analyse(
    fs.readFileSync(path.join(path.dirname(INFO_LOG), 'qwen3-omni-three-stage-transfers.log'), 'utf8'),
  );
  assert.equal(stagesRanAlongside(sequential.findings, sequential.requestCount), false);
  const stage = timedStage(1, 1415);
  assert.equal(formatStageNumbers({ ...stage, alongsideUpstream: true }), 'p50 stage time 1.42 s incl. upstream (n=6)');
  assert.equal(
    formatStageDetail({ ...stage, alongsideUpstream: true }),
    'stage time p50 1,415 ms incl. the upstream time it ran alongside (n=6)',
  );
  assert.equal(formatStageNumbers(stage), 'p50 stage time 1.42 s (n=6)');
});

test('compare against an INFO log: end to end from [OmniTiming] total=, the phases "no stage table", never "hidden"', () => {
  const run = (file: string): RunData => {
    const reader = new LogRunReader(false);
    reader.push(fs.readFileSync(file));
    return { source: path.basename(file), kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
  };
  const debugLog = path.join(path.dirname(INFO_LOG), 'qwen3tts-talker-first-audio-before-fix.log');
  const report = compareRuns(run(debugLog), run(INFO_LOG));
  const e2e = report.metrics.find((m) => m.scope === 'request' && m.metric === 'e2e');
  assert.equal(e2e?.status, 'compared');
  assert.equal(e2e?.candidate.measured, 6);
  // The median of the printed totals 0.74, 4.47, 2.05, 1.13, 0.45, 1.72 s.
  assert.equal(e2e?.candidate.p50, 1425);
  const queued = report.metrics.find((m) => m.scope === '1' && m.metric === 'queued');
  assert.equal(queued?.status, 'baselineOnly');
  assert.deepEqual(queued?.candidate.unknown, { noStageTable: 6 });
  const text = compareTable(report, []).join('\n');
  assert.match(
    text,
    /stage 1 · code2wav queued: measured in the baseline only \(candidate: none of 6 measured: 6 no stage table \(\[OmniTiming\] only, INFO level\)\)/,
  );
  assert.doesNotMatch(text, /\d+ hidden/);
});

test('an edge without its TransferEdgeStats column: not printed in an INFO log, hidden (not "not printed") in a DEBUG one', () => {
  const edgesOf = (log: string | Uint8Array): string[] =>
    [...analysedStream(log).requests].flatMap((r) =>
      r.transfers.map((t) => `${t.edge} ${t.tablePrinted ? 'table' : 'no table'} ${edgeTableNotPrinted(r, t)}`),
    );
  // Six requests, each with its 0->1 edge from [OmniTiming] only: no table printed at INFO.
  assert.deepEqual(edgesOf(INFO_LOG), Array<string>(6).fill('0->1 no table true'));
  // A DEBUG log without its TransferEdgeStats tables (all-zero ones are left out): the edges
  // [OmniTiming] names are hidden, not unprinted.
  const debugLog = fs
    .readFileSync(path.join(path.dirname(INFO_LOG), 'qwen3-omni-three-stage-transfers.log'), 'utf8')
    .split('\n')
    .filter((l) => !l.includes('stats.py:1084]'))
    .join('\n');
  assert.deepEqual(
    edgesOf(Buffer.from(debugLog)),
    [1, 2, 3].flatMap(() => ['0->1 no table false', '1->2 no table false']),
  );
});

test('a log of the format before February 2026: says which format it is and what it lacks, not that DEBUG is missing', () => {
  const text = fs
    .readFileSync(path.join(__dirname, '../fixtures/real-logs/08-pr500-legacy-omni-summary.log'), 'utf8')
    .split('\n')
    .slice(1)
    .join('\n');
  const snap = analyse(text);
  assert.equal(snap.requests.length, 1);
  assert.equal(snap.legacyRecords, 2);
  assert.equal(snap.tablesMissing, null);
  const out = tableReport(snap, { source: 'legacy.log' }).join(' ').replace(/\s+/g, ' ');
  assert.match(
    out,
    /The log has 2 stats dicts in vLLM-Omni's format before February 2026 \(request_level_metrics, transfer and \[Summary\] dicts, printed at INFO\): 1 request is read from its request_level_metrics dicts .*, with no queued \/ prefill \/ decode \/ TTFT split: that format prints none\./,
  );
  assert.doesNotMatch(
    out,
    /its stats tables need VLLM_LOGGING_LEVEL=DEBUG|No request has a \[StageRequestStats\] table/,
  );
  assert.match(out, /\(12 values read\)/);
  assert.doesNotMatch(out, /were kept/);
});
