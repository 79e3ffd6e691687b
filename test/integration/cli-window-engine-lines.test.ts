// analyze and explain with --since / --until (and --boot with a window) judge the KV-cache usage
// of vLLM's periodic `Engine NNN:` lines over the same lines, run as the built dist/cli.js in a
// child process: a log whose Engine 000 reads 0.0% in its first and last minute and 23.2% in the
// one between says nothing over the whole log, and, with a window that holds only a 0.0% line,
// the same metric-not-reporting finding in both commands ("1 of 1 lines in the window"), in their
// tables and their JSON. The lines are fixture 09's (vllm-omni#517) Engine 000 line with its time
// and KV-cache usage changed, the requests fixture 05's (vllm-omni#3042) [OmniTiming] line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const REAL_LOGS = path.join(ROOT, 'test', 'fixtures', 'real-logs');
const dir = tempFolder('stage-lens-window-engine-lines-');

/** The first line of a real log that includes `marker`. */
function realLine(file: string, marker: string): string {
  const line = fs
    .readFileSync(path.join(REAL_LOGS, file), 'utf8')
    .split('\n')
    .find((l) => l.includes(marker));
  assert.ok(line !== undefined, `${file} has a line with ${marker}`);
  return line;
}

const ENGINE = realLine('09-pr517-vllm-loggers-ansi-prefix.log', '] Engine 000:');
const TIMING = realLine('05-pr3042-omnitiming-and-overall.log', '[OmniTiming]');
const PREFIX = ENGINE.slice(0, ENGINE.indexOf(' INFO ') + ' INFO '.length);

/** Fixture 09's Engine 000 line printed at `time` (11-28) with a KV-cache usage of `kv`. */
function engineLine(time: string, kv: string): string {
  const line = ENGINE.replace('11-28 14:29:49', `11-28 ${time}`).replace(
    'GPU KV cache usage: 23.2%',
    `GPU KV cache usage: ${kv}`,
  );
  assert.ok(line.includes(`11-28 ${time}`) && line.includes(`usage: ${kv},`));
  return line;
}

/** Fixture 05's [OmniTiming] line of request chatcmpl-`id`, printed at `time` (11-28) by fixture 09's process. */
function timingLine(time: string, id: string): string {
  const message = TIMING.slice(TIMING.indexOf('[omni_base.py'));
  return `${PREFIX}11-28 ${time} ${message.replace('chatcmpl-ac59cea85b422f04', `chatcmpl-${id}`)}`;
}

const bootLine = (time: string): string =>
  `${PREFIX}11-28 ${time} [api_server.py:1885] Starting vLLM API server 0 on http://0.0.0.0:8091`;

/** Boot 1: request a, a 0.0% line. Boot 2: request b, a line reading `between`, request c, a 0.0% line. */
function writeLog(name: string, between: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    [
      bootLine('14:29:40'),
      timingLine('14:29:45', 'a'),
      engineLine('14:29:49', '0.0%'),
      bootLine('14:30:40'),
      timingLine('14:30:45', 'b'),
      engineLine('14:30:49', between),
      timingLine('14:31:45', 'c'),
      engineLine('14:31:49', '0.0%'),
    ].join('\n') + '\n',
  );
  return file;
}

const MIXED = writeLog('engine-lines-mixed.log', '23.2%');
const ALL_ZERO = writeLog('engine-lines-all-zero.log', '0.0%');

const FINDING = (scope: string): string =>
  'GPU KV cache usage (Engine log line) is registered but reads 0 while requests finish: ' +
  `Engine 000 (stage 0 replica 0, inferred from the engine index): 1 of 1 lines ${scope} with requests running read 0.0%. ` +
  'Not a measurement; do not plot it as 0.';

interface FindingJson {
  code: string;
  severity: string;
  stageId?: number | null;
  message: string;
}

/** The metric-not-reporting lines of analyze's table and explain's, and of their JSON findings. */
function notReporting(
  log: string,
  args: readonly string[],
): {
  analyzeTable: string[];
  explainTable: string[];
  analyzeJson: FindingJson[];
  explainJson: FindingJson[];
} {
  const runs = {
    analyzeTable: cli(['analyze', log, ...args]),
    explainTable: cli(['explain', log, ...args]),
    analyzeJson: cli(['analyze', log, ...args, '--format', 'json']),
    explainJson: cli(['explain', log, ...args, '--format', 'json']),
  };
  for (const [name, run] of Object.entries(runs)) assert.equal(run.status, 0, `${name}: ${run.stderr}`);
  const lines = (text: string): string[] => text.split('\n').filter((l) => l.includes('GPU KV cache usage (Engine'));
  // The members both JSONs give a finding (explain's has its evidence and known causes apart too).
  const json = (text: string): FindingJson[] =>
    (JSON.parse(text) as { findings: FindingJson[] }).findings
      .filter((f) => f.code === 'metric-not-reporting')
      .map(({ code, severity, stageId, message }) => ({ code, severity, stageId, message }));
  return {
    analyzeTable: lines(runs.analyzeTable.stdout),
    explainTable: lines(runs.explainTable.stdout),
    analyzeJson: json(runs.analyzeJson.stdout),
    explainJson: json(runs.explainJson.stdout),
  };
}

/** Both commands say `finding` once, in their tables (each its own way) and their JSON. */
function assertBothSay(log: string, args: readonly string[], finding: string): void {
  const got = notReporting(log, args);
  assert.deepEqual(got.analyzeTable, [`  [warning] metric-not-reporting (stage 0): ${finding}`]);
  assert.deepEqual(got.explainTable, [`  ${finding}`]);
  assert.deepEqual(got.analyzeJson, [
    { code: 'metric-not-reporting', severity: 'warning', stageId: 0, message: finding },
  ]);
  assert.deepEqual(got.explainJson, got.analyzeJson);
}

test('--since a minute with only a 0.0% line: both judge that line alone, in the same words', () => {
  assertBothSay(MIXED, ['--since', '14:31:00'], FINDING('in the window'));
});

test('--until a minute with only a 0.0% line: both judge that line alone, in the same words', () => {
  assertBothSay(MIXED, ['--until', '14:30:00'], FINDING('in the window'));
});

test("--boot 2 with --since: both judge the boot's lines in the window alone, in the same words", () => {
  assertBothSay(MIXED, ['--boot', '2', '--since', '14:31:00'], FINDING('of boot 2 in the window'));
});

test('a log whose every line reads 0.0%: both count the lines of the window alone', () => {
  assertBothSay(ALL_ZERO, ['--since', '14:30:00', '--until', '14:31:00'], FINDING('in the window'));
});
