// `stage-lens explain` of a log with no target says in its table every finding its JSON has, run
// as the built dist/cli.js in a child process: a log of vLLM `Engine NNN:` lines alone whose
// Engine 000 reads a KV-cache usage of 0.0% with requests running (fixture 09's, vllm-omni#517,
// lines printed three minutes running, Engine 000's usage set to 0.0%) has its
// metric-not-reporting finding under "Metrics not reporting", with its known causes, as a log with
// targets has it, over the whole log and over a --since/--until window; an [Overall Summary] log
// whose request table is cut off (fixture 01, vllm-omni#891) has its truncated-record finding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const REAL_LOGS = path.join(ROOT, 'test', 'fixtures', 'real-logs');
const dir = tempFolder('stage-lens-explain-no-target-findings-');

/** Fixture 09's four Engine lines (its first line names the source) printed at 14:29:49, 14:30:49 and 14:31:49, Engine 000 reading 0.0%. */
function engineOnlyLog(): string {
  const lines = fs
    .readFileSync(path.join(REAL_LOGS, '09-pr517-vllm-loggers-ansi-prefix.log'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.includes('] Engine 00'));
  assert.equal(lines.length, 4);
  const zero = lines.map((l) =>
    l.includes('] Engine 000:') ? l.replace('GPU KV cache usage: 23.2%', 'GPU KV cache usage: 0.0%') : l,
  );
  assert.ok(zero[0]?.includes('Running: 8 reqs') && zero[0].includes('GPU KV cache usage: 0.0%'));
  const file = path.join(dir, 'engine-lines-only.log');
  const minutes = ['14:29:49', '14:30:49', '14:31:49'].flatMap((t) =>
    zero.map((l) => l.replace('11-28 14:29:49', `11-28 ${t}`)),
  );
  fs.writeFileSync(file, minutes.join('\n') + '\n');
  return file;
}

const ENGINE_ONLY = engineOnlyLog();
const TRUNCATED = path.join(REAL_LOGS, '01-pr891-overall-e2e-noprefix.log');
const NO_TARGET = 'No target to explain: no request printed an end-to-end time, a first output or a TTFT.';

const notReporting = (lines: string): string =>
  'GPU KV cache usage (Engine log line) is registered but reads 0 while requests finish: ' +
  `Engine 000: ${lines} with requests running read 0.0%. Not a measurement; do not plot it as 0.`;

const KNOWN_CAUSES = [
  "    known cause: vllm-omni #4802: OmniSchedulerMixin.make_stats() returns None within 1 s of its last stats and skips vLLM's own make_stats(), so kv_cache_usage_perc, prefix-cache and prompt-token counters read 0 under load",
  '    known cause: vllm-omni #5170: log_stats never reaches locally launched stage engines (stage_runtime passes log_stats=False) and the IterationStats that do arrive are discarded, so the per-stage vllm:* families can never carry data',
];

const TRUNCATED_MESSAGE =
  '1 request has a table that was cut off or lost a line (end of input or an interrupted write); the rows that were read are kept; the rows it did not read (after the last one read, or where the lost line was: the table sorts them by name) are unknown, shown as not recorded, not as hidden.';

interface FindingJson {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
}

/** explain's table lines from its no-target verdict on, its JSON findings, and analyze's table. */
function explainRuns(
  log: string,
  args: readonly string[],
): { after: string[]; table: string[]; json: FindingJson[]; analyze: string } {
  const table = cli(['explain', log, ...args]);
  const json = cli(['explain', log, ...args, '--format', 'json']);
  const analyze = cli(['analyze', log, ...args]);
  for (const run of [table, json, analyze]) assert.equal(run.status, 0, run.stderr);
  const lines = table.stdout.split('\n');
  return {
    after: lines.slice(lines.indexOf(NO_TARGET)),
    table: lines,
    json: (JSON.parse(json.stdout) as { findings: FindingJson[] }).findings,
    analyze: analyze.stdout,
  };
}

/** Every JSON finding's message is a line of the table, once. */
function assertTableSaysEveryFinding(table: readonly string[], json: readonly FindingJson[]): void {
  assert.ok(json.length > 0);
  for (const f of json)
    assert.equal(table.filter((l) => l.trim() === f.message).length, 1, `${f.code} in the table: ${f.message}`);
}

test('a log of Engine lines alone: its metric-not-reporting finding under "Metrics not reporting", as in its JSON and analyze', () => {
  const finding = notReporting('3 of 3 lines');
  const got = explainRuns(ENGINE_ONLY, []);
  assert.deepEqual(got.after, [NO_TARGET, '', 'Metrics not reporting', `  ${finding}`, ...KNOWN_CAUSES, '']);
  assert.deepEqual(
    got.json.map((f) => [f.code, f.severity]),
    [
      ['metric-not-reporting', 'warning'],
      ['engine-stats-only', 'info'],
    ],
  );
  assert.equal(got.json[0]?.message, finding);
  assertTableSaysEveryFinding(got.table, got.json);
  assert.ok(got.analyze.includes(`  [warning] metric-not-reporting: ${finding}\n`), got.analyze);
});

test("a log of Engine lines alone with --since/--until: the finding judges the window's one line, in the table and the JSON", () => {
  const finding = notReporting('1 of 1 lines in the window');
  const got = explainRuns(ENGINE_ONLY, ['--since', '14:30:00', '--until', '14:31:00']);
  assert.deepEqual(got.after, [NO_TARGET, '', 'Metrics not reporting', `  ${finding}`, ...KNOWN_CAUSES, '']);
  assert.equal(got.json.find((f) => f.code === 'metric-not-reporting')?.message, finding);
  assertTableSaysEveryFinding(got.table, got.json);
  assert.ok(got.analyze.includes(`  [warning] metric-not-reporting: ${finding}\n`), got.analyze);
});

test('an [Overall Summary] log whose request table is cut off: its truncated-record finding after the verdict', () => {
  const got = explainRuns(TRUNCATED, []);
  assert.deepEqual(got.after, [NO_TARGET, '', TRUNCATED_MESSAGE, '']);
  assert.deepEqual(
    got.json.map((f) => [f.code, f.message]),
    [['truncated-record', TRUNCATED_MESSAGE]],
  );
  assertTableSaysEveryFinding(got.table, got.json);
  assert.ok(got.analyze.includes(`  [info] truncated-record, 1 request: ${TRUNCATED_MESSAGE}\n`), got.analyze);
});
