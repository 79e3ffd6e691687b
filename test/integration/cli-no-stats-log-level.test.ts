// `stage-lens analyze` and `compare` as a user runs them (the built dist/cli.js, a real child
// process) on logs with no stats at all: a log with DEBUG lines comes from a server that already
// logs at DEBUG, so the advice names --log-stats alone; an INFO-only log is told it needs both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-logs');

const AT_DEBUG =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats, at VLLM_LOGGING_LEVEL=DEBUG; this log has DEBUG lines, so the server already logs at DEBUG: what is missing is --log-stats.';
const AT_INFO =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.';
const COMPARE_AT_DEBUG =
  '0 requests read: no request stats in it (it has DEBUG lines, so the server already logs at DEBUG, as the per-stage tables need: was it written without --log-stats?)';
const COMPARE_AT_INFO =
  '0 requests read: no request stats in it (is it a vLLM-Omni server log written with --log-stats, and VLLM_LOGGING_LEVEL=DEBUG for the per-stage tables?)';

let dir: string;
/** real-logs 10 without its source comment: a DEBUG server's log with no stats table. */
let debugReal: string;

before(() => {
  buildBundles('cli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-no-stats-level-'));
  debugReal = path.join(dir, 'pr1463-debug.log');
  const text = fs.readFileSync(path.join(REAL, '10-pr1463-debug-stage-prefix.log'), 'utf8');
  fs.writeFileSync(debugReal, text.slice(text.indexOf('\n') + 1));
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, lines: readonly string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  return file;
}

function cli(args: readonly string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, cwd: ROOT });
}

/** What analyze says after its header line. */
function analyzed(file: string): string[] {
  const run = cli(['analyze', file]);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').slice(1);
}

test('real-logs 10 (a DEBUG server without --log-stats): analyze says the level is there and --log-stats is missing', () => {
  assert.deepEqual(analyzed(debugReal), ['', AT_DEBUG, '']);
});

test('a DEBUG log with no tables, written here: the DEBUG advice whichever line is at DEBUG', () => {
  const server = 'INFO 03-02 10:00:00 [api_server.py:1888] vLLM API server version 0.11.0';
  // A DEBUG line after INFO lines of the same process, one in Python's default format, one colored.
  const cases: Record<string, string[]> = {
    'vllm-prefix.log': [
      server,
      '(APIServer pid=7) INFO 03-02 10:00:01 [omni.py:463] [Orchestrator] All stages initialized successfully',
      '(APIServer pid=7) DEBUG 03-02 10:00:02 [omni.py:862] [Orchestrator] generate() called',
      '(APIServer pid=7) INFO 03-02 10:00:03 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s',
    ],
    'python-default.log': [server, 'DEBUG:vllm_omni.entrypoints.omni:generate() called'],
    'ansi.log': [server, '\x1b[37mDEBUG\x1b[0m 03-02 10:00:02 [omni.py:862] [Orchestrator] generate() called'],
  };
  for (const [name, lines] of Object.entries(cases)) {
    const out = analyzed(write(name, lines));
    assert.ok(out.includes(AT_DEBUG), `${name}:\n${out.join('\n')}`);
    assert.ok(!out.includes(AT_INFO), name);
  }
});

test('an INFO-only log with no tables keeps the advice to set both', () => {
  const file = write('info.log', [
    'INFO 03-02 10:00:00 [api_server.py:1888] vLLM API server version 0.11.0',
    '(APIServer pid=7) INFO 03-02 10:00:01 [omni.py:463] [Orchestrator] All stages initialized successfully',
    // The word DEBUG inside a message is no line at DEBUG.
    '(APIServer pid=7) WARNING 03-02 10:00:02 [envs.py:12] VLLM_LOGGING_LEVEL=DEBUG is not set',
    'INFO:vllm_omni.entrypoints.omni:DEBUG tables are off',
  ]);
  assert.deepEqual(analyzed(file), ['', AT_INFO, '']);
});

test('compare: a DEBUG log with nothing to compare is said to lack --log-stats, an INFO-only one both', () => {
  const info = write('info-compare.log', ['INFO 03-02 10:00:00 [api_server.py:1888] vLLM API server version 0.11.0']);
  const run = cli(['compare', debugReal, info]);
  assert.equal(run.status, 2, run.stdout);
  assert.equal(
    run.stderr,
    `stage-lens compare: the baseline (${debugReal}) holds nothing to compare: ${COMPARE_AT_DEBUG}\n` +
      `stage-lens compare: the candidate (${info}) holds nothing to compare: ${COMPARE_AT_INFO}\n`,
  );
});
