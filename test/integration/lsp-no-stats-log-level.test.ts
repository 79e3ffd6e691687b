// Import Log... of logs with no stats at all, over a real connection to the language server: the
// summary the side panel shows says whether the log has DEBUG lines, and the panel's notice (the
// CLI's words) then names --log-stats alone; an INFO-only log is told it needs both. Logs of
// [OmniTiming] lines or [Overall Summary] tables alone with a DEBUG line: the summary's notice,
// finding and the panels' words name the stats logger's level or a cut excerpt, not INFO.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SummaryParams } from '../../server/protocol';
import { emptyTableText, noStageStatsNotice, noTailText } from '../../webview/shared/noRequests';
import { overallSummaryOnlyMessage, STATS_TABLES_CUT_FIX } from '../../server/shared';
import { startLanguageServer, storageForFile, type LspProcess } from './support/lspProcess';
import { overallSummaryExcerpt, realLog } from '../unit/support/logHelpers';

const INFO_OMNITIMING = path.resolve(
  __dirname,
  '..',
  'fixtures',
  'upstream-rendered',
  'qwen3tts-info-level-omnitiming-only.log',
);
const storage = storageForFile('stage-lens-no-stats-level-');

const AT_DEBUG =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats, at VLLM_LOGGING_LEVEL=DEBUG; this log has DEBUG lines, so the server already logs at DEBUG: what is missing is --log-stats.';
const AT_INFO =
  'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.';

test(
  'real-logs 10 and an INFO-only log: the whole session, a window and a scope each say which advice applies',
  { timeout: 90_000 },
  async () => {
    const inputs = fs.mkdtempSync(path.join(storage, 'inputs-'));
    const debugLog = path.join(inputs, 'pr1463-debug.log');
    fs.writeFileSync(debugLog, realLog('10-pr1463-debug-stage-prefix.log'));
    const infoLog = path.join(inputs, 'info.log');
    fs.writeFileSync(
      infoLog,
      'INFO 03-02 10:00:00 [api_server.py:1888] vLLM API server version 0.11.0\n' +
        '(APIServer pid=7) INFO 03-02 10:00:01 [omni.py:463] [Orchestrator] All stages initialized successfully\n',
    );
    const lsp = await startLanguageServer(storage);
    for (const [file, debugLines, advice] of [
      [debugLog, true, AT_DEBUG],
      [infoLog, false, AT_INFO],
    ] as const) {
      const session = await lsp.importLog(file);
      assert.equal(session.requestCount, 0, file);
      const views: Omit<SummaryParams, 'sessionId'>[] = [{}, { windowSeconds: 3600 }, { scope: { excludeCold: true } }];
      for (const params of views) {
        const what = `${path.basename(file)} ${JSON.stringify(params)}`;
        const summary = await lsp.request('stageLens/summary', { sessionId: session.id, ...params });
        assert.equal(summary.debugLines, debugLines, what);
        assert.equal(noStageStatsNotice(session, summary), advice, what);
        assert.equal(noTailText(session, summary), `No tail to explain: the session has no request. ${advice}`, what);
      }
    }
  },
);

const LOGGER_CAUSE = (printed: string): string =>
  `vLLM-Omni prints ${printed} only with --log-stats and its stats tables only when its stats logger (vllm_omni.metrics.stats) is enabled for DEBUG, so either that logger was set above DEBUG apart from the rest, or the tables were cut out of this excerpt`;
const LOGGER_FIX =
  "let the vllm_omni.metrics.stats logger log at DEBUG (a logging config named by VLLM_LOGGING_CONFIG_PATH can set its level apart from VLLM_LOGGING_LEVEL's), or read the whole log rather than an excerpt";
const INFO_FIX =
  "restart the server with VLLM_LOGGING_LEVEL=DEBUG in its environment (Stage Lens's Launch Server... sets it: stageLens.serverEnv)";
const OMNITIMING_SHOWN =
  "Shown instead: each stage's time and the end-to-end time from [OmniTiming] (10 ms resolution), and the /metrics histograms when scraped.";
const OMNITIMING_AT_DEBUG = `No request has a [StageRequestStats] table, only [OmniTiming] lines, though this log has DEBUG lines: ${LOGGER_CAUSE('[OmniTiming]')}; there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: ${LOGGER_FIX}.`;
const OMNITIMING_AT_INFO = `No request has a [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its stats tables at DEBUG and this server ran at INFO, so there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: ${INFO_FIX}.`;
const OMNITIMING_OVERALL_AT_INFO = `No request has a [StageRequestStats] table, only [OmniTiming] lines: vLLM-Omni logs its per-request stage tables at DEBUG and this server ran at INFO (this log's [Overall Summary] table was printed at INFO, as older vLLM-Omni builds print it), so there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: ${INFO_FIX}.`;
const OVERALL_SHOWN =
  'Shown instead: what the summaries print, one value per table (end-to-end and per-stage wall time, tokens/s); the per-request split into queued / prefill / decode / TTFT needs the';

/**
 * The session's notice as the side panel asks for it in each view (whole, a window, a scope):
 * whether the log has DEBUG lines, the notice, and the stage-tables-missing finding's message.
 */
async function assertNoticeInEveryView(
  lsp: LspProcess,
  sessionId: string,
  debugLines: boolean,
  notice: string,
  label: string,
): Promise<void> {
  const views: Omit<SummaryParams, 'sessionId'>[] = [{}, { windowSeconds: 3600 }, { scope: { excludeCold: true } }];
  for (const params of views) {
    const what = `${label} ${JSON.stringify(params)}`;
    const summary = await lsp.request('stageLens/summary', { sessionId, ...params });
    assert.equal(summary.debugLines, debugLines, what);
    assert.equal(summary.tablesMissing?.message, notice, what);
    assert.equal(summary.tablesMissing?.debugLines, debugLines ? true : undefined, what);
    assert.equal(summary.findings.find((f) => f.code === 'stage-tables-missing')?.message, notice, what);
  }
}

test(
  '[OmniTiming] lines only, with a DEBUG line and without: the summary, a scope and the finding say which notice applies',
  { timeout: 90_000 },
  async () => {
    const inputs = fs.mkdtempSync(path.join(storage, 'omnitiming-'));
    const lines = fs.readFileSync(INFO_OMNITIMING, 'utf8').split('\n');
    const debugLog = path.join(inputs, 'omnitiming-debug.log');
    fs.writeFileSync(
      debugLog,
      [
        lines[0],
        '(APIServer pid=5151) DEBUG 10-19 07:12:05 [omni.py:862] [Orchestrator] generate() called',
        ...lines.slice(1),
      ].join('\n'),
    );
    const lsp = await startLanguageServer(storage);
    for (const [file, debugLines, notice] of [
      [debugLog, true, OMNITIMING_AT_DEBUG],
      [INFO_OMNITIMING, false, OMNITIMING_AT_INFO],
    ] as const) {
      const session = await lsp.importLog(file);
      assert.equal(session.requestCount, 6, file);
      await assertNoticeInEveryView(lsp, session.id, debugLines, notice, path.basename(file));
    }
  },
);

test(
  "[Overall Summary] tables only (real-logs 02) with a DEBUG line: the side panel's notice and Latency Details' empty table",
  { timeout: 90_000 },
  async () => {
    const inputs = fs.mkdtempSync(path.join(storage, 'overall-'));
    const overall = realLog('02-pr891-overall-apiserver-prefix.log');
    const debugLog = path.join(inputs, 'overall-debug.log');
    fs.writeFileSync(
      debugLog,
      `(APIServer pid=656024) DEBUG 02-06 15:01:49 [omni.py:862] [Orchestrator] generate() called\n${overall}`,
    );
    const infoLog = path.join(inputs, 'overall-info.log');
    fs.writeFileSync(infoLog, overall);
    const lsp = await startLanguageServer(storage);
    for (const [file, debugLines, notice, fix] of [
      [
        debugLog,
        true,
        `No per-request stage statistics: the log has 1 [Overall Summary] table and DEBUG lines but no [StageRequestStats] table. ${LOGGER_CAUSE('[Overall Summary]')}. ${OVERALL_SHOWN} stats tables. Fix: ${LOGGER_FIX}.`,
        LOGGER_FIX,
      ],
      [
        infoLog,
        false,
        `No per-request stage statistics: the log has 1 [Overall Summary] table (older vLLM-Omni builds print it at INFO) and no [StageRequestStats] table. ${OVERALL_SHOWN} DEBUG stats tables. Fix: ${INFO_FIX}.`,
        INFO_FIX,
      ],
    ] as const) {
      const session = await lsp.importLog(file);
      const summary = await lsp.request('stageLens/summary', { sessionId: session.id });
      assert.equal(summary.debugLines, debugLines, file);
      const overall = summary.overallSummaries;
      assert.ok(overall !== null && overall !== undefined, file);
      // The side panel's notice (webview/sidePanel/main.ts) and Latency Details' empty table.
      assert.equal(overallSummaryOnlyMessage(overall, summary.debugLines === true), notice, file);
      assert.equal(
        emptyTableText(session, summary),
        `This log has no per-request tables, only 1 [Overall Summary] table (1 request): the side panel shows its values. Fix: ${fix}.`,
        file,
      );
    }
  },
);

test(
  '[OmniTiming] lines and an [Overall Summary] table at INFO (real-logs 05): the summary, a window, a scope and the finding put only the per-request stage tables at DEBUG',
  { timeout: 90_000 },
  async () => {
    const inputs = fs.mkdtempSync(path.join(storage, 'omnitiming-overall-'));
    const file = path.join(inputs, 'pr3042-omnitiming-overall.log');
    fs.writeFileSync(file, realLog('05-pr3042-omnitiming-and-overall.log'));
    const lsp = await startLanguageServer(storage);
    const session = await lsp.importLog(file);
    assert.equal(session.requestCount, 1);
    await assertNoticeInEveryView(lsp, session.id, false, OMNITIMING_OVERALL_AT_INFO, path.basename(file));
  },
);

test(
  'an excerpt of a DEBUG log with its [Overall Summary] tables at DEBUG, with [OmniTiming] lines and without: every view says the stage tables were cut out',
  { timeout: 90_000 },
  async () => {
    const inputs = fs.mkdtempSync(path.join(storage, 'cut-'));
    const withTiming = path.join(inputs, 'overall-omnitiming-excerpt.log');
    fs.writeFileSync(withTiming, overallSummaryExcerpt(true));
    const overallOnly = path.join(inputs, 'overall-excerpt.log');
    fs.writeFileSync(overallOnly, overallSummaryExcerpt(false));
    const cause =
      "vLLM-Omni's stats logger prints [Overall Summary], RequestE2EStats, StageRequestStats and TransferEdgeStats in one call, at DEBUG, so a server that printed one of them at DEBUG printed its stage tables too: they were cut out of this excerpt (a grep, a tail, or lines a log shipper dropped)";
    const lsp = await startLanguageServer(storage);
    const timed = await lsp.importLog(withTiming);
    assert.equal(timed.requestCount, 6);
    await assertNoticeInEveryView(
      lsp,
      timed.id,
      true,
      `No request has a [StageRequestStats] table, only [OmniTiming] lines, though this log has stats tables printed at DEBUG: ${cause}; there is no queued / prefill / decode / TTFT split. ${OMNITIMING_SHOWN} Fix: ${STATS_TABLES_CUT_FIX}.`,
      path.basename(withTiming),
    );
    const tables = await lsp.importLog(overallOnly);
    const summary = await lsp.request('stageLens/summary', { sessionId: tables.id });
    assert.equal(summary.statsTablesAtDebug, true);
    const overall = summary.overallSummaries;
    assert.ok(overall !== null && overall !== undefined);
    // The side panel's notice (webview/sidePanel/main.ts) and Latency Details' empty table.
    assert.equal(
      overallSummaryOnlyMessage(overall, summary.debugLines === true, summary.statsTablesAtDebug === true),
      `No per-request stage statistics: the log has 6 [Overall Summary] tables, printed at DEBUG, but no [StageRequestStats] table. ${cause}. ${OVERALL_SHOWN} stats tables. Fix: ${STATS_TABLES_CUT_FIX}.`,
    );
    assert.equal(
      emptyTableText(tables, summary),
      `This log has no per-request tables, only 6 [Overall Summary] tables (6 requests): the side panel shows their values. Fix: ${STATS_TABLES_CUT_FIX}.`,
    );
  },
);
