// engine-stats-only under --since / --until, run as the built dist/cli.js in a child process: a
// log of vLLM `Engine NNN:` lines alone (fixture 09's Engine 000 line, vllm-omni#517, printed by
// Engine 000 at 14:29:39, :49 and :59 and by Engine 001 at :39 and :49) counts and names the
// lines and engines of the window alone, "in the window", in analyze's table, JSON and CSV note
// and explain's table and JSON, as the KV-cache finding counts them; a window without a line says
// nothing of them; without a window the whole log's lines are said as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const ENGINE =
  fs
    .readFileSync(path.join(ROOT, 'test', 'fixtures', 'real-logs', '09-pr517-vllm-loggers-ansi-prefix.log'), 'utf8')
    .split('\n')
    .find((l) => l.includes('] Engine 000:')) ?? '';
assert.ok(ENGINE.includes('GPU KV cache usage'));

/** Fixture 09's Engine 000 line printed at 11-28 `time` by engine `engine`. */
function engineLine(time: string, engine: string): string {
  const line = ENGINE.replace('11-28 14:29:49', `11-28 ${time}`).replace('Engine 000:', `Engine ${engine}:`);
  assert.ok(line.includes(`11-28 ${time} `) && line.includes(`Engine ${engine}:`));
  return line;
}

const LOG = path.join(tempFolder('stage-lens-window-engine-stats-only-'), 'engine-lines.log');
fs.writeFileSync(
  LOG,
  [
    engineLine('14:29:39', '000'),
    engineLine('14:29:39', '001'),
    engineLine('14:29:49', '000'),
    engineLine('14:29:49', '001'),
    engineLine('14:29:59', '000'),
  ].join('\n') + '\n',
);

const REST =
  " and no request: they say each engine's running and waiting requests, KV-cache usage and throughput at each stats interval, not any request's times, so they give no phase split. " +
  "`stage-lens explain --format json` reads them for load over time (each engine's running / waiting / KV-cache usage, overTime.gauges).";

interface FindingJson {
  code: string;
  message: string;
}

/** engine-stats-only as each output says it: analyze's table, JSON and CSV (stderr), explain's table and JSON. */
function saidEverywhere(args: readonly string[]): Record<string, string[]> {
  const run = (argv: readonly string[]): { stdout: string; stderr: string } => {
    const r = cli(argv);
    assert.equal(r.status, 0, `${argv.join(' ')}: ${r.stderr}`);
    return r;
  };
  const jsonMessages = (text: string): string[] =>
    (JSON.parse(text) as { findings: FindingJson[] }).findings
      .filter((f) => f.code === 'engine-stats-only')
      .map((f) => f.message);
  const linesWith = (text: string): string[] => text.split('\n').filter((l) => l.includes('vLLM engine stats line'));
  return {
    analyzeTable: linesWith(run(['analyze', LOG, ...args]).stdout),
    analyzeJson: jsonMessages(run(['analyze', LOG, ...args, '--format', 'json']).stdout),
    analyzeCsv: linesWith(run(['analyze', LOG, ...args, '--format', 'csv']).stderr),
    explainTable: linesWith(run(['explain', LOG, ...args]).stdout),
    explainJson: jsonMessages(run(['explain', LOG, ...args, '--format', 'json']).stdout),
  };
}

/** Every output says `message` once, each its own way. */
function expected(message: string): Record<string, string[]> {
  return {
    analyzeTable: [`  [info] engine-stats-only: ${message}`],
    analyzeJson: [message],
    analyzeCsv: [`stage-lens analyze: ${message}`],
    explainTable: [message],
    explainJson: [message],
  };
}

test("--since 14:29:45: the window's 3 lines of 2 engines, said to be the window's, in every output", () => {
  assert.deepEqual(
    saidEverywhere(['--since', '14:29:45']),
    expected('The log has 3 vLLM engine stats lines in the window (`Engine NNN:`, 2 engines)' + REST),
  );
});

test("--since 14:29:55 --until 14:30: the window's one line, of one engine", () => {
  assert.deepEqual(
    saidEverywhere(['--since', '14:29:55', '--until', '14:30']),
    expected('The log has 1 vLLM engine stats line in the window (`Engine NNN:`, 1 engine)' + REST),
  );
});

test('a window before every line: no engine-stats-only in any output; the whole log without a window', () => {
  const none = { analyzeTable: [], analyzeJson: [], analyzeCsv: [], explainTable: [], explainJson: [] };
  assert.deepEqual(saidEverywhere(['--until', '14:29:30']), none);
  assert.deepEqual(
    saidEverywhere([]),
    expected('The log has 5 vLLM engine stats lines (`Engine NNN:`, 2 engines)' + REST),
  );
});
