// A view of one boot or of a time window counts its own requests and engine lines, and names the
// log's figures it carries as the log's: cold-start says which boot or window its requests are
// in and how many boots the log has; metric-not-reporting judges the KV-cache usage over the
// window's Engine lines; the CSV's note on a log of older-format dicts says how many of the
// requests read from them the window holds. The language server over a real connection and
// the built CLI as a child process say the same.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { ExplainScope, Finding, SummaryParams } from '../../server/protocol';
import { runCli } from './support/cliProcess';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { engineLinesBootsLog } from './support/bootLog';

const ROOT = path.resolve(__dirname, '..', '..');
const storage = storageForFile('stage-lens-scope-own-figures-');
const COLD_TAIL =
  '; a cold start can put a one-time cost (JIT builds, graph capture) into any phase, so read its numbers apart from steady state.';
const KV_HEAD =
  'GPU KV cache usage (Engine log line) is registered but reads 0 while requests finish: Engine 000 (stage 0 replica 0, inferred from the engine index): ';
const KV_TAIL = ' with requests running read 0.0%. Not a measurement; do not plot it as 0.';
let dir = '';
let log = '';

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-scope-own-figures-'));
  // Boot 1: 6 requests (10-19 07:12), Engine lines at 10.0%; boot 2: 3 requests (10-22 09:30:53,
  // 09:31:29, 09:31:58), its one Engine line (09:31:30, 2 running) at 0.0%.
  log = path.join(dir, 'two-boots.log');
  fs.writeFileSync(
    log,
    engineLinesBootsLog().replace(
      /(INFO 10-22 09:31:30 .*GPU KV cache usage: )10\.0%/,
      (_, head: string) => `${head}0.0%`,
    ),
  );
});

after(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

/** `stage-lens analyze <args> --format json`'s messages of `code`. */
function cliMessages(args: readonly string[], code: string): string[] {
  const run = runCli(['analyze', ...args, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { findings: Finding[] }).findings
    .filter((f) => f.code === code)
    .map((f) => f.message);
}

async function summaryMessages(
  lsp: LspProcess,
  sessionId: string,
  params: Omit<SummaryParams, 'sessionId'>,
  code: string,
): Promise<string[]> {
  const summary = await lsp.request('stageLens/summary', { sessionId, ...params });
  return summary.findings.filter((f) => f.code === code).map((f) => f.message);
}

/** The log-clock window from the end of the session's `first`-th request (0-based) on. */
async function windowFrom(lsp: LspProcess, sessionId: string, first: number): Promise<ExplainScope> {
  const spans = await lsp.request('stageLens/requestSpans', { sessionId });
  assert.equal(spans.requestIds.length, 9);
  const fromMs = spans.endMs[first];
  assert.ok(fromMs !== undefined && Number.isFinite(fromMs));
  return { fromMs };
}

test(
  "cold-start in a boot's or a window's view counts its requests and says which boot or window they are in and the log's boots",
  { timeout: 90_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    assert.equal(session.requestCount, 9);
    // Each view's message up to the phase where a cold request stands out most (its own medians'), the same in both.
    const cold = async (params: Omit<SummaryParams, 'sessionId'>, cli: readonly string[]): Promise<string[]> => {
      const said = await summaryMessages(lsp, session.id, params, 'cold-start');
      assert.deepEqual(cliMessages([log, ...cli], 'cold-start'), said, JSON.stringify(params));
      return said.map((m) => m.slice(0, m.indexOf(COLD_TAIL)));
    };
    const head = (count: string, where: string): string[] => [`${count} the first after a server start (${where})`];
    assert.deepEqual(await cold({}, []), head('2 requests were', '2 boots in this log'));
    assert.deepEqual(
      await cold({ scope: { boot: 2 } }, ['--boot', '2']),
      head('1 request was', 'in boot 2, of the 2 boots in this log'),
    );
    assert.deepEqual(
      await cold({ scope: { boot: 1 } }, ['--boot', '1']),
      head('1 request was', 'in boot 1, of the 2 boots in this log'),
    );
    // The window from boot 2's first request (10-22 09:30:53) on: its 3 requests, 1 of them cold.
    assert.deepEqual(
      await cold({ scope: await windowFrom(lsp, session.id, 6) }, ['--since', '10-22 09:30:53']),
      head('1 request was', 'in the window, of the 2 boots in this log'),
    );
    // The last hour of the capture: the whole import, both boots' first requests.
    const lastHour = await summaryMessages(lsp, session.id, { windowSeconds: 3600 }, 'cold-start');
    assert.deepEqual(
      lastHour.map((m) => m.slice(0, m.indexOf(COLD_TAIL))),
      head('2 requests were', 'in the window, of the 2 boots in this log'),
    );
  },
);

test(
  "metric-not-reporting in a time window judges the KV-cache usage over the window's Engine lines, in analyze --since and the window's summary alike",
  { timeout: 90_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(log);
    // Over the log, 1 of its 3 lines with requests running reads 0: no finding.
    assert.deepEqual(await summaryMessages(lsp, session.id, {}, 'metric-not-reporting'), []);
    assert.deepEqual(cliMessages([log], 'metric-not-reporting'), []);
    // From boot 2's second request (09:31:29) on: the Engine line of 09:31:30, which reads 0.
    const inWindow = [`${KV_HEAD}1 of 1 lines in the window${KV_TAIL}`];
    const late = await windowFrom(lsp, session.id, 7);
    assert.deepEqual(await summaryMessages(lsp, session.id, { scope: late }, 'metric-not-reporting'), inWindow);
    assert.deepEqual(cliMessages([log, '--since', '10-22 09:31:29'], 'metric-not-reporting'), inWindow);
    // With the boot: its lines in the window.
    assert.deepEqual(await summaryMessages(lsp, session.id, { scope: { ...late, boot: 2 } }, 'metric-not-reporting'), [
      `${KV_HEAD}1 of 1 lines of boot 2 in the window${KV_TAIL}`,
    ]);
    assert.deepEqual(cliMessages([log, '--boot', '2', '--since', '10-22 09:31:29'], 'metric-not-reporting'), [
      `${KV_HEAD}1 of 1 lines of boot 2 in the window${KV_TAIL}`,
    ]);
    // Until boot 2's first request (09:30:53): boot 1's lines and that of 09:30:50, all at 10.0%: no finding.
    const spans = await lsp.request('stageLens/requestSpans', { sessionId: session.id });
    const early = { toMs: spans.endMs[6] };
    assert.deepEqual(await summaryMessages(lsp, session.id, { scope: early }, 'metric-not-reporting'), []);
    assert.deepEqual(cliMessages([log, '--until', '10-22 09:31:00'], 'metric-not-reporting'), []);
  },
);

test(
  "analyze --format csv of a log of older-format dicts with --since or --boot: the stderr note's figures are the log's, with how many of its dict requests the window or boot holds",
  { timeout: 60_000 },
  () => {
    const several = path.join(ROOT, 'test', 'fixtures', 'logs', 'legacy-request-level-metrics-several.log');
    const note = (read: string): string =>
      `stage-lens analyze: the input has 7 stats dicts in vLLM-Omni's format before February 2026: ${read}, with no phase split (that format prints none: the split columns are empty); a current vLLM-Omni (February 2026 or later) prints [StageRequestStats] tables with --log-stats at VLLM_LOGGING_LEVEL=DEBUG`;
    // The requests a CSV holds (a row per stage and edge of each), and its stderr's lines.
    const csv = (args: readonly string[]): { requests: number; stderr: string[] } => {
      const run = runCli(['analyze', several, ...args, '--format', 'csv']);
      assert.equal(run.status, 0, run.stderr);
      const ids = new Set(
        run.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((row) => row.split(',')[0]),
      );
      return { requests: ids.size, stderr: run.stderr.trimEnd().split('\n') };
    };
    assert.deepEqual(csv([]), { requests: 5, stderr: [note('5 requests read from them')] });
    assert.deepEqual(csv(['--since', '02-03 16:23:28']), {
      requests: 2,
      stderr: [
        'stage-lens analyze: Window: the requests that finished from 02-03 16:23:28; 3 outside it left out.',
        note('5 requests read from them (2 of them in the window)'),
      ],
    });
    assert.deepEqual(
      csv(['--until', '02-03 16:23:28']).stderr[1],
      note('5 requests read from them (3 of them in the window)'),
    );
    assert.deepEqual(csv(['--boot', '0']).stderr[1], note('5 requests read from them (all of them in boot 0)'));
    // One dict request: the real paste of vllm-omni#1107.
    const one = runCli([
      'analyze',
      path.join(ROOT, 'test', 'fixtures', 'real-logs', '06-pr1107-legacy-log_utils-request_level_metrics.log'),
      '--since',
      '02-03 16:23:00',
      '--format',
      'csv',
    ]);
    assert.match(
      one.stderr,
      /\nstage-lens analyze: the input has 1 stats dict in vLLM-Omni's format before February 2026: 1 request read from them \(in the window\), with no phase split/,
    );
  },
);
