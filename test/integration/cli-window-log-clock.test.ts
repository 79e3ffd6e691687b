// analyze and explain --since / --until on logs whose requests give no time to place the window
// by, run as the built dist/cli.js in a child process: a log of vLLM `Engine NNN:` lines alone
// (real, from vllm-omni#517, printed 11-28 14:29:49) has the window placed on its lines' clock and
// said as for a log of timed requests; a log that prints no time at all says the window cannot
// be placed (exit 2), in its JSON too (`placed: false`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const ENGINE_LINES = path.join(ROOT, 'test', 'fixtures', 'real-logs', '09-pr517-vllm-loggers-ansi-prefix.log');
const NO_PREFIX = path.join(ROOT, 'test', 'fixtures', 'real-logs', '13-docs-contributing-metrics-example-tables.log');
const dir = tempFolder('stage-lens-window-log-clock-');

interface WindowJson {
  from: string | null;
  to: string | null;
  requestsOutside: number;
  requestsWithoutTime: number;
  placed: boolean;
}

/** `analyze <log> <window> --format json`: its window member, exit status and stderr. */
function jsonWindow(
  log: string,
  window: readonly string[],
): { window: WindowJson; status: number | null; stderr: string } {
  const run = cli(['analyze', log, ...window, '--format', 'json']);
  const doc = JSON.parse(run.stdout) as { window: WindowJson; requests: unknown[] };
  assert.equal(doc.requests.length, 0);
  return { window: doc.window, status: run.status, stderr: run.stderr };
}

/** The log of fixture 09 with its lines' prefixes cut off: the same Engine lines, and no time. */
function engineLinesWithoutTime(): string {
  const file = path.join(dir, 'engine-lines-no-prefix.log');
  const lines = fs
    .readFileSync(ENGINE_LINES, 'utf8')
    .split('\n')
    .filter((line) => line.includes('] Engine 0'))
    .map((line) => line.slice(line.indexOf('Engine 0')));
  assert.equal(lines.length, 4);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const WINDOWS: readonly { args: readonly string[]; from: string | null; to: string | null; words: string }[] = [
  { args: ['--since', '14:29:00'], from: '11-28 14:29:00', to: null, words: 'from 11-28 14:29:00' },
  { args: ['--until', '14:29:49'], from: null, to: '11-28 14:29:49', words: 'until 11-28 14:29:49' },
  {
    args: ['--since', '11-28 14:29:40', '--until', '14:30'],
    from: '11-28 14:29:40',
    to: '11-28 14:30:00',
    words: '11-28 14:29:40 – 11-28 14:30:00',
  },
];

for (const { args, from, to, words } of WINDOWS)
  test(`a log of Engine lines alone, ${args.join(' ')}: the window is placed on its lines' clock, in the JSON, the table, the CSV and explain`, () => {
    const json = jsonWindow(ENGINE_LINES, args);
    // No request is in the window, nor left out by it: the log has none, as without a window.
    assert.equal(json.status, 0, json.stderr);
    assert.equal(json.stderr, '');
    assert.deepEqual(json.window, { from, to, requestsOutside: 0, requestsWithoutTime: 0, placed: true });

    const table = cli(['analyze', ENGINE_LINES, ...args]);
    assert.equal(table.status, 0, table.stderr);
    const lines = table.stdout.split('\n');
    assert.equal(lines[0], `Stage Lens: 0 requests, 0 stages from ${ENGINE_LINES}`);
    assert.equal(lines[2], `Window: the requests that finished ${words}; none left out.`);
    assert.match(lines[4] ?? '', /^No per-request stage statistics found\./);

    const csv = cli(['analyze', ENGINE_LINES, ...args, '--format', 'csv']);
    assert.equal(csv.status, 0, csv.stderr);
    assert.equal(
      csv.stderr.split('\n')[0],
      `stage-lens analyze: Window: the requests that finished ${words}; none left out.`,
    );

    const explain = cli(['explain', ENGINE_LINES, ...args]);
    assert.equal(explain.status, 0, explain.stderr);
    assert.equal(
      explain.stdout.split('\n')[0],
      `Stage Lens explain: ${ENGINE_LINES} · 0 requests (0 in scope: finished ${words})`,
    );
  });

test("explain's JSON scope of a log of Engine lines alone is the window on its lines' clock", () => {
  const explainJson = cli(['explain', ENGINE_LINES, '--since', '14:29:00', '--until', '14:29:49', '--format', 'json']);
  assert.equal(explainJson.status, 0, explainJson.stderr);
  const { scope } = JSON.parse(explainJson.stdout) as { scope: { fromMs: number; toMs: number } };
  assert.equal(new Date(scope.fromMs).toISOString().slice(5, 23), '11-28T14:29:00.000');
  assert.equal(new Date(scope.toMs).toISOString().slice(5, 23), '11-28T14:29:49.999');
});

test('a log with any timed line places the window by it: a start-up line alone, Engine lines before requests without a time', () => {
  const startUp = path.join(dir, 'start-up-line.log');
  fs.writeFileSync(
    startUp,
    '(APIServer pid=2963765) INFO 11-28 14:29:31 [api_server.py:1885] Starting vLLM API server 0 on http://0.0.0.0:8091\n',
  );
  const started = jsonWindow(startUp, ['--until', '14:29']);
  assert.equal(started.status, 0, started.stderr);
  assert.deepEqual(started.window, {
    from: null,
    to: '11-28 14:29:00',
    requestsOutside: 0,
    requestsWithoutTime: 0,
    placed: true,
  });

  // The window is placed, and the one request, without a time, is outside it: exit 2, saying why.
  const mixed = path.join(dir, 'timed-engine-lines-untimed-request.log');
  fs.writeFileSync(mixed, fs.readFileSync(ENGINE_LINES, 'utf8') + fs.readFileSync(NO_PREFIX, 'utf8'));
  const json = jsonWindow(mixed, ['--since', '14:29']);
  assert.equal(json.status, 2);
  assert.deepEqual(json.window, {
    from: '11-28 14:29:00',
    to: null,
    requestsOutside: 0,
    requestsWithoutTime: 1,
    placed: true,
  });
  const noTimes =
    "the log's requests carry no time (their lines have no log prefix), so --since/--until cannot place them";
  assert.equal(json.stderr, `stage-lens analyze: ${noTimes}\n`);
  const table = cli(['analyze', mixed, '--since', '14:29']);
  assert.equal(table.status, 2);
  const lines = table.stdout.split('\n');
  assert.equal(lines[2], 'Window: the requests that finished from 11-28 14:29:00; 1 without a log time left out.');
  assert.equal(
    lines[4],
    "The log's requests carry no time (their lines have no log prefix), so --since/--until cannot place them.",
  );
  assert.doesNotMatch(table.stdout, /DEBUG/);
});

const NO_LOG_TIME = "the log's lines carry no time (none has a log prefix), so --since/--until cannot place the window";

for (const { args } of WINDOWS)
  test(`a log that prints no time, ${args.join(' ')}: the window cannot be placed, said in every format and by explain (exit 2)`, () => {
    const log = engineLinesWithoutTime();
    const json = jsonWindow(log, args);
    assert.equal(json.status, 2);
    assert.deepEqual(json.window, { from: null, to: null, requestsOutside: 0, requestsWithoutTime: 0, placed: false });
    assert.equal(json.stderr, `stage-lens analyze: ${NO_LOG_TIME}\n`);

    const table = cli(['analyze', log, ...args]);
    assert.equal(table.status, 2);
    const lines = table.stdout.split('\n');
    assert.equal(lines[0], `Stage Lens: 0 requests, 0 stages from ${log}`);
    assert.equal(lines[2], `${NO_LOG_TIME.charAt(0).toUpperCase()}${NO_LOG_TIME.slice(1)}.`);
    assert.equal(table.stderr, `stage-lens analyze: ${NO_LOG_TIME}\n`);

    const csv = cli(['analyze', log, ...args, '--format', 'csv']);
    assert.equal(csv.status, 2);
    assert.equal(csv.stderr.split('\n').at(-2), `stage-lens analyze: ${NO_LOG_TIME}`);

    const explain = cli(['explain', log, ...args]);
    assert.equal(explain.status, 2);
    assert.equal(explain.stdout, '');
    assert.equal(explain.stderr, `stage-lens explain: ${NO_LOG_TIME}\n`);
    // Without a window the same log reads as before: no request, exit 0.
    assert.equal(cli(['analyze', log]).status, 0);
  });
