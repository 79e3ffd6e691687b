// Import Log... of logs with no stats at all, over a real connection to the language server: the
// summary the side panel shows says whether the log has DEBUG lines, and the panel's notice (the
// CLI's words) then names --log-stats alone; an INFO-only log is told it needs both.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SummaryParams } from '../../server/protocol';
import { noStageStatsNotice, noTailText } from '../../webview/shared/noRequests';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const REAL = path.resolve(__dirname, '..', 'fixtures', 'real-logs');
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
    const text = fs.readFileSync(path.join(REAL, '10-pr1463-debug-stage-prefix.log'), 'utf8');
    fs.writeFileSync(debugLog, text.slice(text.indexOf('\n') + 1));
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
