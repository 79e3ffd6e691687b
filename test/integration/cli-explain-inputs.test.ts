// `stage-lens explain` on inputs with nothing to compare, run as a user runs it (the built
// dist/cli.js as a real child process): an empty file or stdin, and a log of one request.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ExplainReport } from '../../server/core/explain/explainReport';
import { CLI, runCli as cli } from './support/cliProcess';

const ROOT = path.resolve(__dirname, '..', '..');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-logs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-explain-inputs-'));

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('explain of an empty input exits 2 and says it is empty, as analyze and compare do', () => {
  const empty = path.join(tmp, 'empty.log');
  fs.writeFileSync(empty, '');
  const analyzed = cli(['analyze', empty]);
  assert.equal(analyzed.status, 2);
  const r = cli(['explain', empty]);
  assert.equal(r.status, 2, r.stdout);
  assert.equal(r.stderr, `stage-lens explain: nothing in ${empty} was read: it is empty (0 bytes)\n`);
  assert.equal(
    r.stdout,
    `Stage Lens explain: ${empty} · 0 requests\n\nThe input is empty (0 bytes): nothing was read. Check that the capture wrote the server output to it (the redirect, or the pipe into stdin).\n`,
  );
  assert.doesNotMatch(r.stdout, /No target to explain/);
  const fromStdin = cli(['explain', '-', '--format', 'json'], { input: '' });
  assert.equal(fromStdin.status, 2);
  assert.equal(fromStdin.stderr, 'stage-lens explain: nothing in stdin was read: it is empty (0 bytes)\n');
  assert.equal((JSON.parse(fromStdin.stdout) as ExplainReport).requestCount, 0);
});

test('a log of one request is "1 request" in the headers of explain and compare', () => {
  const log = path.join(REAL, '07-issue693-legacy-log_utils.log');
  const explained = cli(['explain', log]);
  assert.equal(explained.status, 0, explained.stderr);
  assert.equal(explained.stdout.split('\n')[0], `Stage Lens explain: ${log} · 1 request (1 in scope)`);
  const compared = spawnSync(process.execPath, [CLI, 'compare', log, log], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(compared.status, 0, compared.stderr);
  assert.deepEqual(compared.stdout.split('\n').slice(1, 3), [
    `  baseline   ${log} · log · 1 request`,
    `  candidate  ${log} · log · 1 request`,
  ]);
});

test('explain of a log of one request says there is no tail to explain, in the table and the JSON, never a table of +0 ms', () => {
  const log = path.join(REAL, '07-issue693-legacy-log_utils.log');
  const r = cli(['explain', log]);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /Why end-to-end time is slow/);
  assert.doesNotMatch(r.stdout, /\+0 ms/);
  assert.match(
    r.stdout,
    /\nEnd-to-end time: only one request in scope measured it, chatcmpl-a8bd6ccc232c856c \(2 min 10 s\)\. There is no tail to explain: a tail is compared with the other requests part by part; analyze shows this request's parts\.\n/,
  );
  const json = cli(['explain', path.join(REAL, '13-docs-contributing-metrics-example-tables.log'), '--format', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as ExplainReport;
  assert.deepEqual(report.tail, []);
  // Its value is said with it: e2e_total_ms 41,299.133.
  assert.deepEqual(report.oneRequest, [{ target: 'e2e', requestId: '(untitled)', valueMs: 41299.133 }]);
  assert.deepEqual(report.unsupportedTargets, []);
});

test('explain with no target says what the log holds instead: older or unmerged stats dicts, engine lines', () => {
  const dicts = cli(['explain', path.join(REAL, '14-issue533-legacy-summary-dict.log')]);
  assert.equal(dicts.status, 0, dicts.stderr);
  assert.match(
    dicts.stdout,
    /\n\nThe log has 1 stats dict in vLLM-Omni's format before February 2026 .* For a phase split, .*\n\nNo target to explain: /,
  );
  const block = cli(['explain', path.join(REAL, '12-pr3069-unmerged-omni-metrics-summary.log')]);
  assert.match(
    block.stdout,
    /\n\nThe log has 1 "Omni Metrics Summary" block, the layout of vLLM-Omni PR #3069, .*\n\nNo target/,
  );
  const engines = cli(['explain', path.join(REAL, '09-pr517-vllm-loggers-ansi-prefix.log')]);
  assert.match(
    engines.stdout,
    /\n\nThe log has 4 vLLM engine stats lines .* `stage-lens explain --format json` reads them for load over time .*\n\nNo target/,
  );
});

test("explain of a log whose [Overall Summary] table was cut off (real-logs 03) says so in analyze's sentence", () => {
  const text = fs.readFileSync(path.join(REAL, '03-pr1468-overall-empty-first-line.log'), 'utf8');
  const log = path.join(tmp, 'pr1468-overall-cut.log');
  fs.writeFileSync(log, text.slice(text.indexOf('\n') + 1));
  const analyzed = cli(['analyze', log]);
  assert.equal(analyzed.status, 0, analyzed.stderr);
  assert.ok(
    analyzed.stdout
      .split('\n')
      .includes('1 of 1 table was cut off (see Input problems): the rows after the cut are unknown, not hidden.'),
    analyzed.stdout,
  );
  const cut =
    '1 of 1 table was cut off (`stage-lens analyze` lists it under Input problems): the rows after the cut are unknown, not hidden.';
  const r = cli(['explain', log]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.split('\n'), [
    `Stage Lens explain: ${log} · 0 requests (0 in scope)`,
    '',
    "The log has 1 [Overall Summary] table and no per-request stage table: it prints run totals, not any request's times, so there is no tail to explain; `stage-lens analyze` shows it as printed. For per-request times, restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv).",
    '',
    cut,
    '',
    'No target to explain: no request printed an end-to-end time, a first output or a TTFT.',
    '',
  ]);
  const json = JSON.parse(cli(['explain', log, '--format', 'json']).stdout) as ExplainReport;
  assert.equal(json.overallSummaryTables, 1);
  assert.equal(json.overallSummaryCutOff, cut);
  // A whole table (real-logs 02) has no such sentence.
  const whole = JSON.parse(
    cli(['explain', path.join(REAL, '02-pr891-overall-apiserver-prefix.log'), '--format', 'json']).stdout,
  ) as ExplainReport;
  assert.equal('overallSummaryCutOff' in whole, false);
});

test('explain of a log of [Overall Summary] tables alone says what they are and where they are shown', () => {
  const r = cli(['explain', path.join(REAL, '02-pr891-overall-apiserver-prefix.log')]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /\n\nThe log has 1 \[Overall Summary\] table and no per-request stage table: it prints run totals, not any request's times, so there is no tail to explain; `stage-lens analyze` shows it as printed\. For per-request times, restart the server with VLLM_LOGGING_LEVEL=DEBUG .*\n\nNo target to explain: /,
  );
  const json = JSON.parse(
    cli(['explain', path.join(REAL, '02-pr891-overall-apiserver-prefix.log'), '--format', 'json']).stdout,
  ) as ExplainReport;
  assert.equal(json.overallSummaryTables, 1);
  // A log with per-request tables has no such count.
  const tables = cli([
    'explain',
    path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-before-fix.log'),
    '--format',
    'json',
  ]);
  assert.equal((JSON.parse(tables.stdout) as ExplainReport).overallSummaryTables, undefined);
});
