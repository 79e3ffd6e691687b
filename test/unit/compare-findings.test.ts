// Findings matched between two runs by (code, stage): appeared, disappeared, persisted,
// with the request counts of both runs; and how the reports show them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRuns } from '../../server/core/compare/compareRuns';
import { diffFindings } from '../../server/core/compare/findingsDiff';
import { compareMarkdown } from '../../server/core/compare/markdownReport';
import { escapeMarkdown } from '../../server/core/markdownText';
import { compareTable } from '../../server/core/compare/tableReport';
import { compareJson } from '../../server/core/compare/jsonReport';
import { LogRunReader } from '../../server/core/compare/logRunReader';
import type { FindingCount, RunData } from '../../server/core/compare/types';

const f = (
  code: FindingCount['code'],
  stageId: number | null,
  requestCount: number,
  severity: FindingCount['severity'] = 'warning',
): FindingCount => ({
  code,
  stageId,
  requestCount,
  severity,
  message: `${code} on ${requestCount} requests`,
});

test('findings diff: appeared / disappeared / persisted by code and stage, with both counts', () => {
  const before = [
    f('ttft-not-recorded', 1, 60),
    f('cold-start', null, 1, 'info'),
    f('split-mismatch', 1, 3),
    f('split-mismatch', 2, 4),
  ];
  const after = [
    f('cold-start', null, 1, 'info'),
    f('split-mismatch', 2, 9),
    f('negative-interval', 0, 2),
    f('queued-includes-input-wait', 1, 60, 'info'),
  ];
  const diff = diffFindings(before, after);
  assert.deepEqual(
    diff.map((d) => [d.change, d.code, d.stageId, d.baselineRequests, d.candidateRequests]),
    [
      ['appeared', 'negative-interval', 0, 0, 2],
      ['appeared', 'queued-includes-input-wait', 1, 0, 60],
      ['disappeared', 'split-mismatch', 1, 3, 0],
      ['disappeared', 'ttft-not-recorded', 1, 60, 0],
      ['persisted', 'split-mismatch', 2, 4, 9],
      ['persisted', 'cold-start', null, 1, 1],
    ],
  );
  // The candidate's message when the finding is there, the baseline's when it is gone.
  assert.equal(
    diff.find((d) => d.code === 'split-mismatch' && d.stageId === 2)?.message,
    'split-mismatch on 9 requests',
  );
  assert.equal(diff.find((d) => d.code === 'ttft-not-recorded')?.message, 'ttft-not-recorded on 60 requests');
  assert.deepEqual(diffFindings([], []), []);
});

function run(source: string, findings: FindingCount[]): RunData {
  return {
    source,
    kind: 'log',
    histograms: null,
    problemCount: 0,
    samples: {
      requestCount: 60,
      coldRequests: 1,
      coldExcluded: false,
      findings,
      scopes: [
        {
          scope: '1',
          stageId: 1,
          requestCount: 60,
          metrics: { ttft: { values: new Float64Array(0), inferred: 0, unknown: { notRecorded: 60 } } },
        },
      ],
    },
  };
}

test('the table and the Markdown say which findings disappeared and which appeared', () => {
  const report = compareRuns(
    run('before.log', [f('ttft-not-recorded', 1, 60)]),
    run('after.log', [f('negative-interval', 0, 2)]),
  );
  const table = compareTable(report).join('\n');
  assert.match(
    table,
    /disappeared +\[warning\] ttft-not-recorded \(stage 1\): 60 requests in the baseline, none in the candidate/,
  );
  assert.match(
    table,
    /appeared +\[warning\] negative-interval \(stage 0\): 2 requests in the candidate, none in the baseline/,
  );
  const md = compareMarkdown(report);
  assert.match(md, /✔️ disappeared: ttft-not-recorded \(stage 1\): 60 requests in the baseline, none in the candidate/);
  assert.match(md, /🆕 appeared: negative-interval \(stage 0\): 2 requests in the candidate, none in the baseline/);
});

test('Markdown escapes what comes from logs: a path cannot become markup', () => {
  assert.equal(escapeMarkdown('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert(1)&gt;');
  assert.equal(escapeMarkdown('a|b *c* `d` [e](f) _g_'), 'a\\|b \\*c\\* \\`d\\` \\[e\\](f) \\_g\\_');
  const md = compareMarkdown(compareRuns(run('<script>x</script>|.log', []), run('b.log', [])));
  assert.ok(!md.includes('<script>'));
  assert.match(md, /&lt;script&gt;x&lt;\/script&gt;\\\|\.log/);
});

test('runs of different sizes: finding counts with their denominators and rates, so 14 → 8 is not read as fewer', () => {
  const sized = (source: string, requestCount: number, findings: FindingCount[]): RunData => {
    const r = run(source, findings);
    return { ...r, samples: r.samples === null ? null : { ...r.samples, requestCount } };
  };
  const report = compareRuns(
    sized('long.log', 300, [f('preempted-requests', 0, 14), f('ttft-not-recorded', 1, 300)]),
    sized('short.log', 154, [f('preempted-requests', 0, 8)]),
  );
  const preempted = report.findings.find((d) => d.code === 'preempted-requests');
  assert.deepEqual(
    [preempted?.baselineRequests, preempted?.baselineOf, preempted?.candidateRequests, preempted?.candidateOf],
    [14, 300, 8, 154],
  );
  const table = compareTable(report).join('\n');
  assert.match(
    table,
    /still present +\[warning\] preempted-requests \(stage 0\): 14 of 300 requests \(4\.7%\) → 8 of 154 requests \(5\.2%\)\n/,
  );
  assert.match(
    table,
    /disappeared +\[warning\] ttft-not-recorded \(stage 1\): 300 of 300 requests \(100\.0%\) → 0 of 154 requests \(0\.0%\)\n/,
  );
  assert.match(
    compareMarkdown(report),
    /• still present: preempted-requests \(stage 0\): 14 of 300 requests \(4\.7%\) → 8 of 154 requests \(5\.2%\)/,
  );
  // Runs of one size keep the plain counts.
  const same = compareRuns(
    sized('a.log', 60, [f('preempted-requests', 0, 14)]),
    sized('b.log', 60, [f('preempted-requests', 0, 8)]),
  );
  assert.match(compareTable(same).join('\n'), /preempted-requests \(stage 0\): 14 → 8 requests\n/);
  // The count after the arrow names its noun: one request is one.
  const once = compareRuns(
    sized('a.log', 60, [f('preempted-requests', 0, 1)]),
    sized('b.log', 60, [f('preempted-requests', 0, 1)]),
  );
  assert.match(compareTable(once).join('\n'), /preempted-requests \(stage 0\): 1 → 1 request\n/);
});

test('a finding read from stats tables is not checkable in a run that printed none (INFO level), never "disappeared"', () => {
  const read = (file: string): RunData => {
    const reader = new LogRunReader(false);
    reader.push(fs.readFileSync(path.join(__dirname, '../fixtures/upstream-rendered', file)));
    return { source: file, kind: 'log', samples: reader.end(), histograms: null, problemCount: 0 };
  };
  const debug = read('qwen3tts-talker-first-audio-before-fix.log');
  const info = read('qwen3tts-info-level-omnitiming-only.log');
  const why = 'it printed no stats tables (a server at INFO logs [OmniTiming] lines only)';
  const report = compareRuns(debug, info);
  assert.deepEqual(
    report.findings.map((x) => [x.change, x.code, x.stageId, x.notCheckable ?? null]),
    [
      ['appeared', 'stage-tables-missing', null, null],
      ['persisted', 'stage-times-overlap', null, null],
      ['notCheckableInCandidate', 'ttft-not-recorded', 1, why],
      ['notCheckableInCandidate', 'preempted-requests', 0, why],
      ['notCheckableInCandidate', 'prefill-covers-decode', 0, why],
      ['notCheckableInCandidate', 'queued-includes-input-wait', 1, why],
    ],
  );
  const table = compareTable(report).join('\n');
  assert.doesNotMatch(table, /disappeared/);
  assert.match(
    table,
    /\n {2}not checkable \[warning\] ttft-not-recorded \(stage 1\): 6 requests in the baseline; not checkable in the candidate: it printed no stats tables \(a server at INFO logs \[OmniTiming\] lines only\)\n/,
  );
  const json = JSON.parse(JSON.stringify(compareJson(report, []))) as {
    findings: { change: string; notCheckable?: string }[];
  };
  assert.deepEqual(
    json.findings.filter((x) => x.change === 'notCheckableInCandidate').map((x) => x.notCheckable),
    [why, why, why, why],
  );
  // The other way round: found in the candidate, which the baseline could not show.
  const reverse = compareRuns(info, debug);
  assert.ok(reverse.findings.every((x) => x.change !== 'appeared' || x.code === 'stage-times-overlap'));
  const md = compareMarkdown(reverse);
  assert.doesNotMatch(md, /appeared: (ttft-not-recorded|preempted-requests|prefill-covers-decode)/);
  assert.match(
    md,
    /\n- ❔ not checkable: preempted-requests \(stage 0\): 1 request in the candidate; not checkable in the baseline: it printed no stats tables/,
  );
});

test('a log finding against a scrape-only run, and a scrape finding against a run with no scrape: not checkable', () => {
  const logRun: RunData = {
    source: 'a.log',
    kind: 'log',
    histograms: null,
    problemCount: 0,
    samples: {
      requestCount: 10,
      coldRequests: 0,
      coldExcluded: false,
      scopes: [],
      findings: [f('split-mismatch', 1, 3)],
    },
  };
  const scrapeRun: RunData = {
    source: 'b.prom',
    kind: 'scrape',
    samples: null,
    histograms: [],
    problemCount: 0,
    scrapeFindings: [{ ...f('ttft-not-recorded', 1, 0), fromScrape: true }],
  };
  assert.deepEqual(
    compareRuns(logRun, scrapeRun).findings.map((x) => [x.change, x.code, x.notCheckable]),
    [
      ['notCheckableInCandidate', 'split-mismatch', 'it has no log, only a /metrics scrape'],
      ['notCheckableInBaseline', 'ttft-not-recorded', 'it has no /metrics scrape'],
    ],
  );
});
