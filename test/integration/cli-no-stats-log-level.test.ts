// `stage-lens analyze`, `explain` and `compare` as a user runs them (the built dist/cli.js, a real
// child process) on logs with no stats at all: a log with DEBUG lines comes from a server that
// already logs at DEBUG, so the advice names --log-stats alone; an INFO-only log is told it needs
// both. And on logs of what --log-stats prints without the tables ([OmniTiming] lines, [Overall
// Summary] tables): with a DEBUG line the server did not run at INFO, so the notice names the stats
// logger's own level or a cut excerpt instead.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';
import { overallSummaryExcerpt } from '../unit/support/logHelpers';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const REAL = path.join(ROOT, 'test', 'fixtures', 'real-logs');
const INFO_OMNITIMING = path.join(
  ROOT,
  'test',
  'fixtures',
  'upstream-rendered',
  'qwen3tts-info-level-omnitiming-only.log',
);

const AT_DEBUG =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats, at VLLM_LOGGING_LEVEL=DEBUG; this log has DEBUG lines, so the server already logs at DEBUG: what is missing is --log-stats.';
const AT_INFO =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.';
const COMPARE_AT_DEBUG =
  '0 requests read: no request stats in it (it has DEBUG lines, so the server already logs at DEBUG, as the per-stage tables need: was it written without --log-stats?)';
const COMPARE_AT_INFO =
  '0 requests read: no request stats in it (is it a vLLM-Omni server log written with --log-stats, and VLLM_LOGGING_LEVEL=DEBUG for the per-stage tables?)';

const NO_TARGET = 'No target to explain: no request printed an end-to-end time, a first output or a TTFT.';
/** What --log-stats prints without the tables, in a log with DEBUG lines: the stats logger's level, or a cut excerpt. */
const LOGGER_CAUSE = (printed: string): string =>
  `vLLM-Omni prints ${printed} only with --log-stats and its stats tables only when its stats logger (vllm_omni.metrics.stats) is enabled for DEBUG, so either that logger was set above DEBUG apart from the rest, or the tables were cut out of this excerpt`;
const LOGGER_FIX =
  "let the vllm_omni.metrics.stats logger log at DEBUG (a logging config named by VLLM_LOGGING_CONFIG_PATH can set its level apart from VLLM_LOGGING_LEVEL's), or read the whole log rather than an excerpt";
const OMNITIMING_SHOWN =
  "Shown instead: each stage's time and the end-to-end time from [OmniTiming] (10 ms resolution), and the /metrics histograms when scraped.";
const OMNITIMING_AT_DEBUG = `No request has a [StageRequestStats] table, only [OmniTiming] lines, though this log has DEBUG lines: ${LOGGER_CAUSE('[OmniTiming]')}; there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: ${LOGGER_FIX}.`;
const OMNITIMING_AT_INFO = `No request has a [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its stats tables at DEBUG and this server ran at INFO, so there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv).`;
/** real-logs 05: [OmniTiming] lines and an [Overall Summary] table, all at INFO (vllm-omni#3042's build). */
const OMNITIMING_OVERALL_AT_INFO = `No request has a [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its per-request stage tables at DEBUG and this server ran at INFO (this log's [Overall Summary] table was printed at INFO, as older vLLM-Omni builds print it), so there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv).`;
const OVERALL_SHOWN =
  'Shown instead: what the summaries print, one value per table (end-to-end and per-stage wall time, tokens/s); the per-request split into queued / prefill / decode / TTFT needs the';
const OVERALL_AT_DEBUG = `No per-request stage statistics: the log has 1 [Overall Summary] table and DEBUG lines but no [StageRequestStats] table. ${LOGGER_CAUSE('[Overall Summary]')}. ${OVERALL_SHOWN} stats tables. Fix: ${LOGGER_FIX}.`;
const OVERALL_AT_INFO = `No per-request stage statistics: the log has 1 [Overall Summary] table (older vLLM-Omni builds print it at INFO) and no [StageRequestStats] table. ${OVERALL_SHOWN} DEBUG stats tables. Fix: restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv).`;

let dir: string;
/** real-logs 10 without its source comment: a DEBUG server's log with no stats table. */
let debugReal: string;
/** real-logs 09 without its source comment: vLLM engine lines at INFO, no stats. */
let infoReal: string;
/** The upstream INFO-level [OmniTiming] log with one line at DEBUG after its first. */
let omniTimingDebug: string;
/** real-logs 02 (one [Overall Summary] table at INFO) with one line at DEBUG before it. */
let overallDebug: string;
let overallInfo: string;
/** real-logs 05 without its source comment. */
let omniTimingOverall: string;

/** `text` without its first line (a fixture's source comment). */
const afterFirstLine = (text: string): string => text.slice(text.indexOf('\n') + 1);

before(() => {
  buildBundles('cli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-no-stats-level-'));
  debugReal = path.join(dir, 'pr1463-debug.log');
  fs.writeFileSync(
    debugReal,
    afterFirstLine(fs.readFileSync(path.join(REAL, '10-pr1463-debug-stage-prefix.log'), 'utf8')),
  );
  infoReal = path.join(dir, 'pr517-info.log');
  fs.writeFileSync(
    infoReal,
    afterFirstLine(fs.readFileSync(path.join(REAL, '09-pr517-vllm-loggers-ansi-prefix.log'), 'utf8')),
  );
  // The same prefix as the log's own lines, at DEBUG: a server that logs at DEBUG.
  const omni = fs.readFileSync(INFO_OMNITIMING, 'utf8').split('\n');
  omniTimingDebug = path.join(dir, 'omnitiming-debug.log');
  fs.writeFileSync(
    omniTimingDebug,
    [
      omni[0],
      '(APIServer pid=5151) DEBUG 10-19 07:12:05 [omni.py:862] [Orchestrator] generate() called',
      ...omni.slice(1),
    ].join('\n'),
  );
  const overall = afterFirstLine(fs.readFileSync(path.join(REAL, '02-pr891-overall-apiserver-prefix.log'), 'utf8'));
  overallInfo = path.join(dir, 'overall-info.log');
  fs.writeFileSync(overallInfo, overall);
  omniTimingOverall = path.join(dir, 'pr3042-omnitiming-overall.log');
  fs.writeFileSync(
    omniTimingOverall,
    afterFirstLine(fs.readFileSync(path.join(REAL, '05-pr3042-omnitiming-and-overall.log'), 'utf8')),
  );
  overallDebug = path.join(dir, 'overall-debug.log');
  fs.writeFileSync(
    overallDebug,
    `(APIServer pid=656024) DEBUG 02-06 15:01:49 [omni.py:862] [Orchestrator] generate() called\n${overall}`,
  );
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

/** What analyze's table says in its first paragraph after the header, unwrapped. */
function firstParagraph(file: string): string {
  const lines = analyzed(file);
  const end = lines.indexOf('', 1);
  return lines.slice(1, end).join(' ');
}

function explained(args: readonly string[]): string[] {
  const run = cli(['explain', ...args]);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n');
}

interface ExplainJson {
  readonly noStageStats?: string;
  readonly debugLines?: boolean;
  readonly statsTablesAtDebug?: boolean;
  readonly findings: readonly { readonly code: string; readonly message: string }[];
}

function explainedJson(file: string): ExplainJson {
  const run = cli(['explain', file, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  return JSON.parse(run.stdout) as ExplainJson;
}

test("explain of real-logs 10 (a DEBUG server without --log-stats): analyze's advice, then no target", () => {
  assert.deepEqual(explained([debugReal]), [
    `Stage Lens explain: ${debugReal} · 0 requests (0 in scope)`,
    '',
    AT_DEBUG,
    '',
    NO_TARGET,
    '',
  ]);
  const json = explainedJson(debugReal);
  assert.equal(json.noStageStats, AT_DEBUG);
  assert.equal(json.debugLines, true);
});

test('explain of an INFO-only log without tables (real-logs 09): the advice to set both, then its engine lines', () => {
  const out = explained([infoReal]);
  assert.deepEqual(out.slice(0, 4), [`Stage Lens explain: ${infoReal} · 0 requests (0 in scope)`, '', AT_INFO, '']);
  assert.match(out[4] ?? '', /^The log has 4 vLLM engine stats lines/);
  assert.deepEqual(out.slice(5), ['', NO_TARGET, '']);
  const json = explainedJson(infoReal);
  assert.equal(json.noStageStats, AT_INFO);
  assert.equal('debugLines' in json, false);
});

/**
 * The notice where analyze and explain put it: analyze's JSON finding (nothing on stderr),
 * explain's first paragraph under its heading, and explain's JSON finding. Returns explain's JSON.
 */
function noticeInAnalyzeAndExplain(file: string, requests: string, notice: string): ExplainJson {
  const run = cli(['analyze', file, '--format', 'json']);
  assert.equal(run.stderr, '');
  const json = JSON.parse(run.stdout) as ExplainJson;
  assert.equal(json.findings.find((f) => f.code === 'stage-tables-missing')?.message, notice);
  assert.deepEqual(explained([file]).slice(0, 4), [`Stage Lens explain: ${file} · ${requests}`, '', notice, '']);
  const explainJson = explainedJson(file);
  assert.equal(explainJson.findings.find((f) => f.code === 'stage-tables-missing')?.message, notice);
  return explainJson;
}

test('[OmniTiming] lines only with a DEBUG line: analyze and explain name the stats logger or a cut excerpt, not INFO', () => {
  assert.equal(firstParagraph(omniTimingDebug), OMNITIMING_AT_DEBUG);
  const explainJson = noticeInAnalyzeAndExplain(omniTimingDebug, '6 requests (6 in scope)', OMNITIMING_AT_DEBUG);
  // Requests with stage times: no advice for a log without any stats.
  assert.equal('noStageStats' in explainJson, false);
  // The same log at INFO keeps its notice.
  assert.equal(firstParagraph(INFO_OMNITIMING), OMNITIMING_AT_INFO);
});

test('[Overall Summary] tables only with a DEBUG line: analyze and explain name the stats logger or a cut excerpt, not INFO', () => {
  assert.equal(firstParagraph(overallDebug), OVERALL_AT_DEBUG);
  assert.equal(firstParagraph(overallInfo), OVERALL_AT_INFO);
  const explainLine = (file: string): string | undefined => explained([file])[2];
  const printed =
    "The log has 1 [Overall Summary] table and no per-request stage table: it prints run totals, not any request's times, so there is no tail to explain; `stage-lens analyze` shows it as printed.";
  assert.equal(
    explainLine(overallDebug),
    `${printed} This log has DEBUG lines, so the server logged at DEBUG: for per-request times, ${LOGGER_FIX}.`,
  );
  assert.equal(
    explainLine(overallInfo),
    `${printed} For per-request times, restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv).`,
  );
  // Its summary says what it has: not a log without any stats.
  assert.equal('noStageStats' in explainedJson(overallDebug), false);
});

test('[OmniTiming] lines and an [Overall Summary] table at INFO (real-logs 05): the notice puts only the per-request stage tables at DEBUG', () => {
  assert.equal(firstParagraph(omniTimingOverall), OMNITIMING_OVERALL_AT_INFO);
  noticeInAnalyzeAndExplain(omniTimingOverall, '1 request (1 in scope)', OMNITIMING_OVERALL_AT_INFO);
  // An INFO log of [OmniTiming] lines without a summary table keeps its notice.
  assert.equal(firstParagraph(INFO_OMNITIMING), OMNITIMING_AT_INFO);
});

test('an excerpt of a DEBUG log with its [Overall Summary] tables at DEBUG: analyze and explain say the stage tables were cut out, not left unprinted', () => {
  const cause =
    "vLLM-Omni's stats logger prints [Overall Summary], RequestE2EStats, StageRequestStats and TransferEdgeStats in one call, at DEBUG, so a server that printed one of them at DEBUG printed its stage tables too: they were cut out of this excerpt (a grep, a tail, or lines a log shipper dropped)";
  const fix = 'read the whole log the server wrote rather than an excerpt';
  const withTiming = path.join(dir, 'overall-omnitiming-excerpt.log');
  fs.writeFileSync(withTiming, overallSummaryExcerpt(true));
  const notice = `No request has a [StageRequestStats] table, only [OmniTiming] lines, though this log has stats tables printed at DEBUG: ${cause}; there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: ${fix}.`;
  assert.equal(firstParagraph(withTiming), notice);
  const explainJson = noticeInAnalyzeAndExplain(withTiming, '6 requests (6 in scope)', notice);
  assert.equal(explainJson.statsTablesAtDebug, true);
  // compare's finding of the two runs says it too.
  const compared = cli(['compare', withTiming, withTiming, '--format', 'json']);
  assert.equal(compared.status, 0, compared.stderr);
  const findings = (JSON.parse(compared.stdout) as ExplainJson).findings;
  assert.equal(findings.find((f) => f.code === 'stage-tables-missing')?.message, notice);
  const tablesOnly = path.join(dir, 'overall-excerpt.log');
  fs.writeFileSync(tablesOnly, overallSummaryExcerpt(false));
  assert.equal(
    firstParagraph(tablesOnly),
    `No per-request stage statistics: the log has 6 [Overall Summary] tables, printed at DEBUG, but no [StageRequestStats] table. ${cause}. ${OVERALL_SHOWN} stats tables. Fix: ${fix}.`,
  );
  assert.equal(
    explained([tablesOnly])[2],
    "The log has 6 [Overall Summary] tables and no per-request stage table: they print run totals, not any request's times, so there is no tail to explain; `stage-lens analyze` shows them as printed. " +
      `They were printed at DEBUG: ${cause}. For per-request times, ${fix}.`,
  );
  // A DEBUG line that is not a stats table (the [Overall Summary] of real-logs 02 is at INFO) keeps the logger's words.
  assert.equal(explainedJson(overallDebug).statsTablesAtDebug, undefined);
});
